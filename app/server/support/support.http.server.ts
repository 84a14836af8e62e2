/** Contact and support-inbox errors as HTTP (decision 011): one table for the API, the page and the inbox. */
import { errorTable } from "../http/errors.server";
import { ContactError, type ContactErrorCode } from "./support.service.server";

export const contactErrors = errorTable<ContactErrorCode>(ContactError, {
  "captcha.missing": { status: 400, key: "contact.errors.captchaRequired" },
  "captcha.missingRecaptcha": { status: 400, key: "contact.errors.captchaRequiredRecaptcha" },
  "captcha.invalid": { status: 400, key: "contact.errors.captchaInvalid" },
  "captcha.expired": { status: 400, key: "contact.errors.captchaExpired" },
  "captcha.used": { status: 400, key: "contact.errors.captchaUsed" },
  "captcha.unavailable": { status: 503, key: "contact.errors.captchaUnavailable" },
  rateLimited: {
    status: 429,
    key: "contact.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) }),
  },
  notFound: { status: 404, key: "contact.errors.failed", on: "page" },
  replyEmpty: { status: 400, key: "admin.messages.replyEmpty" },
  replyTooLong: { status: 400, key: "admin.messages.replyTooLong" },
});
