/**
 * The product form's one schema (spec "Product form", section 5), used by the server
 * action. Messages are translation keys (items.json), so the server can answer in the
 * visitor's language and the form shows them next to the fields.
 */
import { z } from "zod";

export const PROD_TYPES = ["mobile", "laptop", "other"] as const;
export type ProdType = (typeof PROD_TYPES)[number];
export const PAYMENTS = ["month", "year"] as const;
export type Payment = (typeof PAYMENTS)[number];
export const DEFAULT_PAYMENT: Payment = "year";

export const NAME_MAX = 80;
export const CONTACT_INFO_MAX = 500;
export const FIND_FEE_MAX = 100_000;

/** Which submit button was pressed. `payNow` and `package` are never stored (spec section 3). */
export const INTENTS = ["payNow", "payLater", "update"] as const;
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
  prodType: z.enum(PROD_TYPES, "items.form.errors.prodTypeRequired"),
  contactInfo: z
    .string()
    .trim()
    .min(1, "items.form.errors.contactInfoRequired")
    .max(CONTACT_INFO_MAX, "items.form.errors.contactInfoTooLong"),
  payment: z.enum(PAYMENTS).catch(DEFAULT_PAYMENT),
  intent: z.enum(INTENTS).catch("payLater"),
});

export type ProductInput = z.output<typeof productFormSchema>;
export type ProductFormValues = Record<"name" | "findFee" | "prodType" | "contactInfo" | "payment", string>;
export type ProductFormErrors = Partial<Record<keyof ProductFormValues, string>>;

const FIELDS = ["name", "findFee", "prodType", "contactInfo", "payment"] as const;

/** The raw text of each field, to give back to the form when it has errors. */
export function formValues(form: FormData): ProductFormValues {
  const out = {} as ProductFormValues;
  for (const f of FIELDS) {
    const v = form.get(f);
    out[f] = typeof v === "string" ? v : "";
  }
  return out;
}

export type ParsedProductForm =
  { ok: true; data: ProductInput } | { ok: false; values: ProductFormValues; errors: ProductFormErrors };

export function parseProductForm(form: FormData): ParsedProductForm {
  const values = formValues(form);
  const intent = form.get("intent");
  const result = productFormSchema.safeParse({ ...values, intent: typeof intent === "string" ? intent : "" });
  if (result.success) return { ok: true, data: result.data };
  const errors: ProductFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ProductFormValues;
    if (!errors[field]) {
      errors[field] = issue.message.startsWith("items.") ? issue.message : `items.form.errors.${field}Invalid`;
    }
  }
  return { ok: false, values, errors };
}
