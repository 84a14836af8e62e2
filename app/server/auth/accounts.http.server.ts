/** Account errors as HTTP (decision 011): status and translation key per code. */
import { errorTable, serviceErrorResponse } from "../http/errors.server";
import { AccountError, type AccountErrorCode } from "./accounts.service.server";

export const ACCOUNT_HTTP_ERRORS = errorTable<AccountErrorCode>(AccountError, {
  invalidCredentials: { status: 401, key: "auth.errors.invalidCredentials" },
  rateLimited: {
    status: 429,
    key: "auth.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
  emailTaken: { status: 409, key: "auth.errors.emailTaken" },
  invalidEmail: { status: 400, key: "auth.errors.invalidEmail" },
  "password.tooShort": { status: 400, key: "auth.password.tooShort", on: { field: "password" } },
  "password.tooLong": { status: 400, key: "auth.password.tooLong", on: { field: "password" } },
  "password.common": { status: 400, key: "auth.password.common", on: { field: "password" } },
  invalidResetLink: { status: 400, key: "auth.errors.invalidResetLink" },
  unsupportedProvider: { status: 400, key: "auth.errors.unsupportedProvider" },
  providerNotConfigured: { status: 400, key: "auth.errors.providerNotConfigured" },
  captchaRequired: { status: 429, key: "auth.errors.captchaRequired" },
  captchaFailed: { status: 400, key: "auth.errors.captchaFailed" },
  invalidVerifyLink: { status: 400, key: "auth.errors.invalidVerifyLink" },
});

/** The sign-in form shows the captcha for these answers. */
export function needsCaptcha(err: AccountError): boolean {
  return err.code === "captchaRequired" || err.code === "captchaFailed";
}

/** The form answer for an AccountError: password rules beside the password field, the rest above the form. */
export function accountFormError<V>(err: AccountError, values: V) {
  return serviceErrorResponse(ACCOUNT_HTTP_ERRORS, err, values);
}
