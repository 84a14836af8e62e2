/**
 * The contact form's rules, shared by the page (inline hints), the page's no-JavaScript
 * action and POST /api/contact. Error messages are translation keys.
 */
import { z } from "zod";
import { EMAIL_MAX, MESSAGE_MAX, NAME_MAX } from "./contact-limits";
import { fieldErrors } from "../forms/form";

export * from "./contact-limits";
/** One helper for every form (decision 031); re-exported where the contact rules are read. */
export { fieldErrors };

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

export type ContactValues = { name: string; email: string; message: string };

export type ContactParse =
  | { ok: true; data: ContactInput; values: ContactValues }
  | { ok: false; values: ContactValues; fieldErrors: Partial<Record<ContactField, string>> };

const text = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The one validation of a contact message, for the page's form post and the JSON API
 * alike: `raw` is the form's fields or the parsed JSON body. The values come back (as
 * typed) to refill the form; errors are translation keys per field.
 */
export function parseContact(raw: unknown): ContactParse {
  const obj = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const values: ContactValues = { name: text(obj.name), email: text(obj.email), message: text(obj.message) };
  const parsed = contactSchema.safeParse(obj);
  if (!parsed.success) return { ok: false, values, fieldErrors: fieldErrors(parsed.error) };
  return { ok: true, data: parsed.data, values };
}

/** `?page=` of the support inbox: a positive integer, anything else is the first page. */
export function parseInboxPage(search: URLSearchParams): number {
  const page = z.coerce
    .number()
    .int()
    .min(1)
    .safeParse(search.get("page") ?? "1");
  return page.success && Number.isSafeInteger(page.data) ? page.data : 1;
}

/** The two forms of an inbox message: mark (un)handled, or reply by mail. */
export const adminMessageIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("handled"), handled: z.enum(["0", "1"]) }),
  z.object({ intent: z.literal("reply"), text: z.string() }),
]);
