/** Account errors as HTTP (decision 011): status and translation key per code. */
import type { ActionResult } from "~/lib/form";
import { formErrorResponse, type HttpErrorTable } from "../http/errors.server";
import type { AccountError, AccountErrorCode } from "./accounts.service.server";

export const ACCOUNT_HTTP_ERRORS: HttpErrorTable<AccountErrorCode> = {
  invalidCredentials: { status: 401, key: "auth.errors.invalidCredentials" },
  rateLimited: {
    status: 429,
    key: "auth.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
  emailTaken: { status: 409, key: "auth.errors.emailTaken" },
  invalidEmail: { status: 400, key: "auth.errors.invalidEmail" },
  "password.tooShort": { status: 400, key: "auth.password.tooShort" },
  "password.tooLong": { status: 400, key: "auth.password.tooLong" },
  "password.common": { status: 400, key: "auth.password.common" },
  invalidResetLink: { status: 400, key: "auth.errors.invalidResetLink" },
  unsupportedProvider: { status: 400, key: "auth.errors.unsupportedProvider" },
  providerNotConfigured: { status: 400, key: "auth.errors.providerNotConfigured" },
  captchaRequired: { status: 429, key: "auth.errors.captchaRequired" },
  captchaFailed: { status: 400, key: "auth.errors.captchaFailed" },
  invalidVerifyLink: { status: 400, key: "auth.errors.invalidVerifyLink" },
};

/** The sign-in form shows the captcha for these answers. */
export function needsCaptcha(err: AccountError): boolean {
  return err.code === "captchaRequired" || err.code === "captchaFailed";
}

/**
 * The form answer for an AccountError: password rules show under the password field,
 * everything else above the form.
 */
export function accountFormError<V>(err: AccountError, values: V) {
  if (err.code.startsWith("password.")) {
    const key = ACCOUNT_HTTP_ERRORS[err.code].key;
    const res = formErrorResponse(ACCOUNT_HTTP_ERRORS, err, values, {
      password: key,
    } as ActionResult<V>["fieldErrors"]);
    res.data.formError = null;
    return res;
  }
  return formErrorResponse(ACCOUNT_HTTP_ERRORS, err, values);
}
