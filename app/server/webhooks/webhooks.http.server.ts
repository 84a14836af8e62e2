/** Webhook errors as HTTP (decision 011): the organisation's webhooks page. */
import { errorTable } from "../http/errors.server";
import { WebhookError, type WebhookErrorCode } from "./webhooks.service.server";

export const webhookErrors = errorTable<WebhookErrorCode>(WebhookError, {
  // An outsider, a plain member, another organisation's endpoint: "Page not found".
  notFound: { status: 404, key: "webhooks.errors.notFound", on: "page" },
  "url.invalid": { status: 400, key: "webhooks.errors.urlInvalid", on: { field: "url" } },
  "url.notHttps": { status: 400, key: "webhooks.errors.urlNotHttps", on: { field: "url" } },
  "url.private": { status: 400, key: "webhooks.errors.urlPrivate", on: { field: "url" } },
  "url.unresolvable": { status: 400, key: "webhooks.errors.urlUnresolvable", on: { field: "url" } },
  "events.none": { status: 400, key: "webhooks.errors.eventsNone", on: { field: "events" } },
  tooMany: { status: 409, key: "webhooks.errors.tooMany" },
  disabled: { status: 409, key: "webhooks.errors.disabled" },
  unverified: { status: 403, key: "webhooks.errors.unverified" },
});
