/**
 * The finder-to-owner relay (decision 013): the finder's message form and the owner's reply,
 * one schema each, used by the server actions. Messages are translation keys (relay.json).
 * Components import relay-limits.ts instead, which keeps zod out of the finder page.
 */
import { z } from "zod";
import { FINDER_CONTACT_MAX, HONEYPOT_FIELD, RELAY_MESSAGE_MAX, type FinderMessageValues } from "./relay-limits";

export * from "./relay-limits";

const coordinate = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,12})?$/, "relay.errors.badLocation")
    .transform(Number)
    .pipe(z.number().min(min, "relay.errors.badLocation").max(max, "relay.errors.badLocation"));

const messageText = z
  .string()
  .trim()
  .min(1, "relay.errors.messageRequired")
  .max(RELAY_MESSAGE_MAX, "relay.errors.messageTooLong");

export const finderMessageSchema = z.object({
  message: messageText,
  contact: z.string().trim().max(FINDER_CONTACT_MAX, "relay.errors.contactTooLong"),
  latitude: coordinate(-90, 90).optional(),
  longitude: coordinate(-180, 180).optional(),
  captchaToken: z.string().max(20_000, "relay.errors.captchaInvalid"),
  /** Set by the page's script: JavaScript ran, so a captcha solution is expected. */
  js: z.boolean(),
  /** The honeypot was filled in. */
  trap: z.boolean(),
});

export type FinderMessageInput = z.output<typeof finderMessageSchema>;

export type FinderMessageParse =
  | { ok: true; data: FinderMessageInput; values: FinderMessageValues }
  | { ok: false; values: FinderMessageValues; fieldErrors: Partial<Record<string, string>> };

const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : "");

/**
 * The finder's form (item page and /m/{token}). Coordinates are sent only when the
 * browser gave a position; one without the other, or out of range, is a 400.
 */
export function parseFinderMessage(form: FormData): FinderMessageParse {
  const values: FinderMessageValues = { message: text(form.get("message")), contact: text(form.get("contact")) };
  const lat = text(form.get("latitude"));
  const lng = text(form.get("longitude"));
  const parsed = finderMessageSchema.safeParse({
    message: values.message,
    contact: values.contact,
    latitude: lat === "" ? undefined : lat,
    longitude: lng === "" ? undefined : lng,
    captchaToken: text(form.get("captchaToken")),
    js: form.get("js") === "1",
    trap: text(form.get(HONEYPOT_FIELD)) !== "",
  });
  const fieldErrors: Partial<Record<string, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "message");
      const key = field === "longitude" ? "latitude" : field;
      fieldErrors[key] ??= issue.message.startsWith("relay.") ? issue.message : "relay.errors.invalid";
    }
    return { ok: false, values, fieldErrors };
  }
  if ((parsed.data.latitude === undefined) !== (parsed.data.longitude === undefined)) {
    return { ok: false, values, fieldErrors: { latitude: "relay.errors.badLocation" } };
  }
  return { ok: true, data: parsed.data, values };
}

export const ownerReplySchema = z.object({ message: messageText });
export type OwnerReplyValues = { message: string };

export function parseOwnerReply(
  form: FormData,
):
  | { ok: true; text: string; values: OwnerReplyValues }
  | { ok: false; values: OwnerReplyValues; fieldErrors: Partial<Record<string, string>> } {
  const values = { message: text(form.get("message")) };
  const parsed = ownerReplySchema.safeParse(values);
  if (parsed.success) return { ok: true, text: parsed.data.message, values };
  return { ok: false, values, fieldErrors: { message: parsed.error.issues[0]?.message ?? "relay.errors.invalid" } };
}

/** True when the finder's "email or phone" is an email address we can write to. */
export function emailOf(contact: string): string | null {
  const r = z.email().safeParse(contact.trim());
  return r.success ? r.data : null;
}
