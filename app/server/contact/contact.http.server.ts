/** Maps contact errors to HTTP statuses and translated messages (shared by the API and the page). */
import type { TFunction } from "i18next";
import type { CaptchaKind } from "~/lib/contact";
import { ContactError } from "./contact.service.server";

export function contactErrorStatus(err: ContactError): number {
  switch (err.code) {
    case "rateLimited":
      return 429;
    case "captcha.unavailable":
      return 503;
    case "notFound":
      return 404;
    default:
      return 400;
  }
}

export function contactErrorMessage(t: TFunction, err: ContactError, captcha: CaptchaKind): string {
  switch (err.code) {
    case "captcha.missing":
      return t(captcha === "recaptcha" ? "contact.errors.captchaRequiredRecaptcha" : "contact.errors.captchaRequired");
    case "captcha.invalid":
      return t("contact.errors.captchaInvalid");
    case "captcha.expired":
      return t("contact.errors.captchaExpired");
    case "captcha.used":
      return t("contact.errors.captchaUsed");
    case "captcha.unavailable":
      return t("contact.errors.captchaUnavailable");
    case "rateLimited":
      return t("contact.errors.rateLimited", { count: err.retryAfterMinutes });
    case "replyEmpty":
      return t("admin.messages.replyEmpty");
    case "replyTooLong":
      return t("admin.messages.replyTooLong");
    default:
      return t("contact.errors.failed");
  }
}

export function contactErrorHeaders(err: ContactError): HeadersInit {
  return err.code === "rateLimited" ? { "Retry-After": String(err.retryAfterMinutes * 60) } : {};
}
