/** Items' error codes as HTTP answers (decision 011): status and translation key per code. */
import { data } from "react-router";
import type { ActionResult } from "~/lib/form";
import { suggestFeeFromForm, type ProductFormValues } from "~/lib/product-form";
import { invalidForm, type HttpErrorTable } from "../http/errors.server";
import type { ItemErrorCode } from "./items.service.server";

export const itemErrors: HttpErrorTable<ItemErrorCode> = {
  notFound: { status: 404, key: "items.errorLoadProduct" },
};

/**
 * The answer to "Suggest fee" (issue #21): the product form as typed with the suggested
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
