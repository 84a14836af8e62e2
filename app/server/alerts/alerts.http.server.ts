/** Alert errors as HTTP (decision 011): the alerts page's forms. */
import type { HttpErrorTable } from "../http/errors.server";
import { recipientsErrors } from "../recipients/recipients.http.server";
import type { RecipientsErrorCode } from "../recipients/recipients.service.server";
import type { AlertsErrorCode } from "./alerts.service.server";

const retryAfter = (p: Record<string, string | number>) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) });

/** The phone form's refusals, the who-may-be-messaged ones (decision 046) included. */
export const alertsErrors: HttpErrorTable<AlertsErrorCode | RecipientsErrorCode> = {
  ...recipientsErrors,
  "phone.invalid": { status: 400, key: "alerts.errors.phoneInvalid" },
  "phone.rateLimited": { status: 429, key: "alerts.errors.phoneRateLimited", headers: retryAfter },
  "code.invalid": { status: 400, key: "alerts.errors.codeInvalid" },
  "code.wrong": { status: 400, key: "alerts.errors.codeWrong" },
  "code.expired": { status: 400, key: "alerts.errors.codeExpired" },
  "code.rateLimited": { status: 429, key: "alerts.errors.codeRateLimited", headers: retryAfter },
};
