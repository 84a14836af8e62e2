/** Items' error codes as HTTP answers (decision 011): status and translation key per code. */
import { data } from "react-router";
import type { ActionResult } from "~/lib/forms/form";
import { suggestFeeFromForm, type ProductFormValues } from "~/lib/forms/product-form";
import { errorTable, invalidForm } from "../http/errors.server";
import { ItemError, type ItemErrorCode } from "../access/item-error.server";

export const itemErrors = errorTable<ItemErrorCode>(ItemError, {
  notFound: { status: 404, key: "items.errorLoadProduct", on: "page" },
  assignForbidden: { status: 403, key: "errors.itemAssignForbidden" },
  assigneeNotMember: { status: 400, key: "errors.itemAssigneeNotMember" },
  deleteAdminOnly: { status: 403, key: "errors.itemDeleteAdminOnly" },
});

/**
 * The product form's assignment field (decision 026): absent = unchanged (the form of a
 * personal item and a member's form have none), "" = nobody, else a member's user id
 * (checked by the service). Anything longer than an id is refused as not a member.
 */
export function assignmentOf(form: FormData): string | null | undefined {
  const v = form.get("assignedTo");
  if (typeof v !== "string") return undefined;
  const id = v.trim();
  return id === "" ? null : id.slice(0, 200);
}

/**
 * The answer to "Suggest fee" (decision 019): the product form as typed with the suggested
 * fee, `suggested` so the form says so; a missing or bad value is a 400 next to its field.
 */
export function suggestionResponse(form: FormData) {
  const { values, errors } = suggestFeeFromForm(form);
  if (Object.keys(errors).length) return invalidForm(values, errors);
  return data<ActionResult<ProductFormValues> & { suggested: true }>({
    values,
    fieldErrors: {},
    formError: null,
    suggested: true,
  });
}
