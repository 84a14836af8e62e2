/** Trusted-contact errors as HTTP (decision 011): /account/alerts' forms, the desk's page and the contacts' pages. */
import type { HttpErrorTable } from "../http/errors.server";
import { recipientsErrors } from "../recipients/recipients.http.server";
import type { RecipientsErrorCode } from "../recipients/recipients.service.server";
import type { ContactsErrorCode } from "./trusted-contacts.service.server";

export const contactsErrors: HttpErrorTable<ContactsErrorCode> = {
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
};

/** The forms that send a consent request (naming a contact, a code): with the who-may-be-messaged refusals (decision 046). */
export const contactsSendErrors: HttpErrorTable<ContactsErrorCode | RecipientsErrorCode> = {
  ...recipientsErrors,
  ...contactsErrors,
};
