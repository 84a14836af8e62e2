/** Alert errors as HTTP (decision 011): the alerts page's forms. */
import { errorTable } from "../http/errors.server";
import { AlertsError, type AlertsErrorCode } from "./alerts.service.server";

const retryAfter = (p: Record<string, string | number>) => ({ "Retry-After": String(Number(p.count ?? 0) * 60) });

export const alertsErrors = errorTable<AlertsErrorCode>(AlertsError, {
  "phone.invalid": { status: 400, key: "alerts.errors.phoneInvalid" },
  "phone.rateLimited": { status: 429, key: "alerts.errors.phoneRateLimited", headers: retryAfter },
  "code.invalid": { status: 400, key: "alerts.errors.codeInvalid" },
  "code.wrong": { status: 400, key: "alerts.errors.codeWrong" },
  "code.expired": { status: 400, key: "alerts.errors.codeExpired" },
  "code.rateLimited": { status: 429, key: "alerts.errors.codeRateLimited", headers: retryAfter },
});
