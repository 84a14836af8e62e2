/** Account page and privacy errors as HTTP (decision 011): status and translation key per code. */
import { errorTable, isErrorOf } from "../http/errors.server";
import { recipientsErrors } from "../recipients/recipients.http.server";
import { AccountPageError, type AccountPageErrorCode } from "./account.service.server";
import { PrivacyError, type PrivacyErrorCode } from "./privacy.service.server";

const retryAfter = (p: Record<string, string | number>) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) });

const accountErrors = errorTable<AccountPageErrorCode>(AccountPageError, {
  emailUnverified: { status: 403, key: "account.errors.emailUnverified" },
  rateLimited: { status: 429, key: "auth.errors.rateLimited", headers: retryAfter },
  sameEmail: { status: 400, key: "account.errors.sameEmail" },
  wrongPassword: { status: 400, key: "account.errors.wrongPassword" },
  noPassword: { status: 400, key: "account.errors.noPassword" },
  passwordAlreadySet: { status: 409, key: "account.errors.passwordAlreadySet" },
  "password.tooShort": { status: 400, key: "auth.password.tooShort" },
  "password.tooLong": { status: 400, key: "auth.password.tooLong" },
  "password.common": { status: 400, key: "auth.password.common" },
  lastSignInMethod: { status: 409, key: "account.errors.lastSignInMethod" },
  notFound: { status: 404, key: "account.errors.notFound" },
  reauthRequired: { status: 403, key: "account.errors.reauthRequired" },
  passwordRequired: { status: 400, key: "account.errors.passwordRequired" },
  providerNotConfigured: { status: 400, key: "auth.errors.providerNotConfigured" },
  cancelFailed: { status: 502, key: "account.errors.cancelFailed" },
  lastOrganisationAdmin: { status: 409, key: "account.errors.lastOrganisationAdmin" },
  organisationsNotConfirmed: {
    status: 409,
    key: "account.errors.organisationsNotConfirmed",
    on: { field: "deleteOrganisations" },
  },
  refundsNotForfeited: { status: 409, key: "account.errors.refundsNotForfeited", on: { field: "forfeitRefunds" } },
  signedOut: { status: 401, key: "account.errors.signedOut", on: { redirect: "/login" } },
});

/** With the who-may-be-messaged refusals: the email change's mail is a consent request (decision 058). */
export const accountPageErrors = [accountErrors, recipientsErrors] as const;

export const privacyErrors = errorTable<PrivacyErrorCode>(PrivacyError, {
  rateLimited: { status: 429, key: "account.errors.exportRateLimited", headers: retryAfter },
  lastOrganisationAdmin: { status: 409, key: "account.errors.lastOrganisationAdmin" },
});

/**
 * Which field of this form a password refusal belongs to (the message stays on the alert
 * too): the delete form's `password`, the account page's `currentPassword` / `newPassword`.
 */
export function passwordMarks(err: unknown, fields: { current: string; new?: string }): Record<string, string> {
  if (!isErrorOf(accountErrors, err)) return {};
  const key = accountErrors[err.code].key;
  if (err.code.startsWith("password.") && fields.new) return { [fields.new]: key };
  if (err.code === "wrongPassword" || (err.code === "passwordRequired" && !fields.new))
    return { [fields.current]: key };
  return {};
}
