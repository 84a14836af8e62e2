/**
 * Who-may-be-messaged errors as HTTP (decisions 011, 046). Listed beside the tables of the
 * features that send consent requests (contacts, alerts, organisations), so their forms
 * answer these refusals in the same words.
 */
import { errorTable } from "../http/errors.server";
import { RecipientsError, type RecipientsErrorCode } from "./recipients.service.server";

export const recipientsErrors = errorTable<RecipientsErrorCode>(RecipientsError, {
  "sender.unverified": { status: 403, key: "recipients.errors.unverified" },
  "recipient.suppressed": { status: 409, key: "recipients.errors.suppressed" },
  "recipient.busyToday": {
    status: 429,
    key: "recipients.errors.busyToday",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 3600) }),
  },
  "recipient.busyMonth": {
    status: 429,
    key: "recipients.errors.busyMonth",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 86_400) }),
  },
  "sms.country": { status: 400, key: "recipients.errors.country" },
  "sms.quota": { status: 429, key: "recipients.errors.quota" },
  "sms.budget": { status: 429, key: "recipients.errors.budget", headers: () => ({ "Retry-After": "3600" }) },
  // A never link that is wrong or altered: "Page not found".
  "never.notFound": { status: 404, key: "recipients.errors.notFound", on: "page" },
});
