/**
 * The product form's one schema (spec "Product form", section 5), used by the server
 * action. Messages are translation keys (items.json), so the server can answer in the
 * visitor's language and the form shows them next to the fields.
 */
import { z } from "zod";
import { DEFAULT_PERIOD, type Period } from "../domain/pricing";
import { APPROX_VALUE_MAX, suggestFee } from "../domain/fee";
import { CONTACT_VISIBILITIES, DEFAULT_VISIBILITY } from "../domain/relay";

import { ITEM_TYPES } from "../domain/item-types";
import {
  CONTACT_INFO_MAX,
  FIND_FEE_MAX,
  NAME_MAX,
  type ProductFormErrors,
  type ProductFormValues,
} from "./product-fields";

export * from "./product-fields";

/**
 * Which submit button was pressed. `payNow` and `package` are never stored (spec section 3).
 * `suggest` ("Suggest fee", decision 019) saves nothing: the form comes back with the fee.
 */
export const INTENTS = ["payNow", "payLater", "update", "suggest"] as const;
export type Intent = (typeof INTENTS)[number];

export const productFormSchema = z.object({
  name: z.string().trim().min(1, "items.form.errors.nameRequired").max(NAME_MAX, "items.form.errors.nameTooLong"),
  findFee: z
    .string()
    .trim()
    .min(1, "items.form.errors.findFeeRequired")
    .regex(/^\d+$/, "items.form.errors.findFeeWhole")
    .transform(Number)
    .pipe(z.number().int().min(0).max(FIND_FEE_MAX, "items.form.errors.findFeeTooHigh")),
  prodType: z.enum(ITEM_TYPES, "items.form.errors.prodTypeRequired"),
  contactInfo: z
    .string()
    .trim()
    .min(1, "items.form.errors.contactInfoRequired")
    .max(CONTACT_INFO_MAX, "items.form.errors.contactInfoTooLong"),
  // A missing choice (an older form) keeps the spec's public page; anything else is refused.
  contactVisibility: z.preprocess(
    (v) => (v === "" ? DEFAULT_VISIBILITY : v),
    z.enum(CONTACT_VISIBILITIES, "relay.errors.visibilityInvalid"),
  ),
  /** Optional and private to the owner (decision 019): "" is none. */
  approxValue: z
    .string()
    .trim()
    .regex(/^\d*$/, "items.form.errors.approxValueWhole")
    .transform((v) => (v === "" ? null : Number(v)))
    .pipe(z.number().int().min(0).max(APPROX_VALUE_MAX, "items.form.errors.approxValueTooHigh").nullable()),
  payment: z.enum(["month", "year"] as const satisfies readonly Period[]).catch(DEFAULT_PERIOD),
  intent: z.enum(INTENTS).catch("payLater"),
  /** A checkbox: present ("on") when ticked (decision 014). */
  scanAlerts: z.string().transform((v) => v === "on" || v === "1"),
});

/**
 * scanAlerts and approxValue optional for callers outside the form (absent: unchanged on
 * update; off and none on create).
 */
export type ProductInput = Omit<z.output<typeof productFormSchema>, "scanAlerts" | "approxValue"> & {
  scanAlerts?: boolean;
  approxValue?: number | null;
};

const FIELDS = [
  "name",
  "findFee",
  "approxValue",
  "prodType",
  "contactInfo",
  "contactVisibility",
  "payment",
  "scanAlerts",
] as const;

/**
 * The raw text of each field, to give back to the form when it has errors. `suffix` reads
 * one block of the three-item form, whose fields are named `name_1`, `name_2`… (decision 038).
 */
export function formValues(form: FormData, suffix = ""): ProductFormValues {
  const out = {} as ProductFormValues;
  for (const f of FIELDS) {
    const v = form.get(f + suffix);
    out[f] = typeof v === "string" ? v : "";
  }
  return out;
}

export type ParsedProductForm =
  { ok: true; data: ProductInput } | { ok: false; values: ProductFormValues; errors: ProductFormErrors };

export function parseProductForm(form: FormData): ParsedProductForm {
  const intent = form.get("intent");
  return parseProductValues(formValues(form), typeof intent === "string" ? intent : "");
}

/** The same checks for values already read (the blocks of the three-item form, decision 038). */
export function parseProductValues(values: ProductFormValues, intent = ""): ParsedProductForm {
  const result = productFormSchema.safeParse({ ...values, intent });
  if (result.success) return { ok: true, data: result.data };
  const errors: ProductFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ProductFormValues;
    if (!errors[field]) {
      const known = issue.message.startsWith("items.") || issue.message.startsWith("relay.");
      errors[field] = known ? issue.message : `items.form.errors.${field}Invalid`;
    }
  }
  return { ok: false, values, errors };
}

/** The submit button pressed was "Suggest fee" (nothing is saved then). */
export function isSuggestIntent(form: FormData): boolean {
  return form.get("intent") === "suggest";
}

/**
 * "Suggest fee" without JavaScript (decision 019): the form as typed, with the finder's fee
 * replaced by about 10 % of the approximate value. Nothing is saved; the owner may change
 * the fee before saving. A missing or bad value leaves the fee alone and says why.
 */
export function suggestFeeFromForm(form: FormData): { values: ProductFormValues; errors: ProductFormErrors } {
  const values = formValues(form);
  const parsed = productFormSchema.shape.approxValue.safeParse(values.approxValue);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "";
    return {
      values,
      errors: { approxValue: message.startsWith("items.") ? message : "items.form.errors.approxValueWhole" },
    };
  }
  if (parsed.data === null) return { values, errors: { approxValue: "items.form.errors.approxValueRequired" } };
  return { values: { ...values, findFee: String(suggestFee(parsed.data)) }, errors: {} };
}
