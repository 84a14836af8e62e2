/**
 * The contact form's rules, shared by the page (inline hints), the page's no-JavaScript
 * action and POST /api/contact. Error messages are translation keys.
 */
import { z } from "zod";
import { EMAIL_MAX, MESSAGE_MAX, NAME_MAX } from "./contact-limits";

export * from "./contact-limits";

export const contactSchema = z.object({
  name: z
    .string()
    .trim()
    .max(NAME_MAX, "contact.errors.nameTooLong")
    .nullish()
    .transform((v) => v ?? ""),
  email: z
    .string("contact.errors.emailRequired")
    .trim()
    .min(1, "contact.errors.emailRequired")
    .max(EMAIL_MAX, "contact.errors.emailInvalid")
    .pipe(z.email("contact.errors.emailInvalid")),
  message: z
    .string("contact.errors.messageRequired")
    .trim()
    .min(1, "contact.errors.messageRequired")
    .max(MESSAGE_MAX, "contact.errors.messageTooLong"),
  captchaToken: z
    .string()
    .max(20_000, "contact.errors.captchaInvalid")
    .nullish()
    .transform((v) => v ?? ""),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = "name" | "email" | "message" | "captchaToken";

/** First error key per field, for inline messages. */
export function fieldErrors(error: z.ZodError): Partial<Record<ContactField, string>> {
  const out: Partial<Record<ContactField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as ContactField | undefined;
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}
