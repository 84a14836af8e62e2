/** Trusted-contact errors as HTTP (decision 011): /account/alerts' forms, the desk's page and the contacts' pages. */
import { errorTable } from "../http/errors.server";
import { recipientsErrors } from "../recipients/recipients.http.server";
import { ContactsError, type ContactsErrorCode } from "./trusted-contacts.service.server";

export const contactsErrors = errorTable<ContactsErrorCode>(ContactsError, {
  "name.invalid": { status: 400, key: "trusted.errors.name", on: { field: "name" } },
  "email.invalid": { status: 400, key: "trusted.errors.email", on: { field: "email" } },
  "phone.invalid": { status: 400, key: "trusted.errors.phone", on: { field: "phone" } },
  "reach.missing": { status: 400, key: "trusted.errors.reach" },
  tooMany: { status: 400, key: "trusted.errors.tooMany" },
  rateLimited: {
    status: 429,
    key: "trusted.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) }),
  },
  // A link that is wrong, altered, expired, or no longer the contact's: "Page not found".
  notFound: { status: 404, key: "trusted.errors.notFound", on: "page" },
  dpaRequired: { status: 409, key: "trusted.errors.dpaRequired" },
  "reply.invalid": { status: 400, key: "trusted.errors.reply", on: { field: "message" } },
  // On the form (codeWrong says how many tries are left); the page marks the code field.
  "code.invalid": { status: 400, key: "trusted.errors.codeInvalid" },
  "code.wrong": { status: 400, key: "trusted.errors.codeWrong" },
  "code.expired": { status: 400, key: "trusted.errors.codeExpired" },
  // The item's relay closed (decision 058): a refunded or never-paid sticker answers nobody.
  closed: { status: 409, key: "trusted.errors.closed" },
});

/** The forms that send a consent request (naming a contact, a code): with the who-may-be-messaged refusals (decision 046). */
export const contactsSendErrors = [contactsErrors, recipientsErrors] as const;

/** The item-contacts form's ticked boxes (`item.{itemId}.{contactId}`): per item, the contacts its alerts reach. */
export function chosenItemContacts(form: FormData): Map<string, Set<string>> {
  const fields = Object.fromEntries(form);
  const chosen = new Map<string, Set<string>>();
  for (const key of Object.keys(fields)) {
    const m = /^item\.([^.]+)\.([^.]+)$/.exec(key);
    if (m && fields[key] === "on") chosen.set(m[1]!, (chosen.get(m[1]!) ?? new Set()).add(m[2]!));
  }
  return chosen;
}
