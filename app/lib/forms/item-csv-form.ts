/** The CSV import form's schema (decision 023), for the route's action. */
import { z } from "zod";
import { productFormSchema } from "./product-form";

/** Which step of the import page a POST is: the upload (preview) or the confirmation. */
export const IMPORT_INTENTS = ["preview", "import"] as const;

/**
 * The import form's fields besides the file: the contact text every imported item gets
 * (the product form's own rule), and on confirmation the previewed scope and CSV text.
 */
export const importFormSchema = z.object({
  intent: z.enum(IMPORT_INTENTS, "csv.errors.invalid"),
  contactInfo: productFormSchema.shape.contactInfo,
  scope: z.string().max(100, "csv.errors.invalid"),
  csv: z.string(),
});

export type ImportFormValues = { contactInfo: string };
