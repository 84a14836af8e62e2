/**
 * An organisation's webhook endpoints (decision 061): its admins add them (https, a host
 * that resolves to public addresses unless WEBHOOK_ALLOW_HOSTS lists it), choose their
 * events, see each one's signing secret and delivery log, resend a delivery, send a test
 * event, disable, enable and delete them. Anyone else gets notFound: an outsider or a
 * plain member learns nothing of them. Only an admin whose email is verified makes Hittad
 * post anywhere (adds, enables, tests, resends: `unverified`): a brand-new account with an
 * organisation of its own must not aim Hittad's requests at a stranger's server (decision
 * 012's rule for mail, decision 046's for anyone contacted).
 */
import { randomBytes } from "node:crypto";
import { isOrganisationId } from "~/lib/domain/organisations";
import { may } from "~/lib/domain/permissions";
import { WEBHOOK_ENDPOINTS_MAX, type WebhookEndpointView, type WebhookEventType } from "~/lib/domain/webhooks";
import type { Deps } from "../service-deps.server";
import { ServiceError } from "../service-error.server";
import { checkEndpoint } from "../channels/public-address.server";
import { wakeOutbox } from "../outbox/outbox-worker.server";
import { enqueueTestEvent, queueDelivery } from "./enqueue.server";
import * as repo from "./webhooks.repository.server";

export type WebhookErrorCode =
  | "notFound"
  | "url.invalid"
  | "url.notHttps"
  | "url.private"
  | "url.unresolvable"
  | "events.none"
  | "tooMany"
  | "disabled"
  /** The admin's email is not verified: nothing that makes Hittad post to an endpoint. */
  | "unverified";

export class WebhookError extends ServiceError<WebhookErrorCode> {}

/** Lines of each endpoint's delivery log the page shows. */
export const DELIVERY_LOG_LINES = 20;

type Ctx = Pick<Deps, "db" | "config" | "clock">;

/** A new signing secret: `whsec_` and base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The organisation's name when `userId` may manage its webhooks; notFound for everyone else. */
async function requireWebhookAdmin(db: Deps["db"], organisationId: string, userId: string) {
  if (!isOrganisationId(organisationId)) throw new WebhookError("notFound");
  const found = await repo.findRole(db, organisationId, userId);
  if (!found || !may(found.role, "organisation", "webhooks")) throw new WebhookError("notFound");
  return { organisation: found.organisationName, emailVerified: found.emailVerified };
}

/** As requireWebhookAdmin, and refuses an admin whose email is not verified (`unverified`). */
async function requireSendingAdmin(db: Deps["db"], organisationId: string, userId: string) {
  const admin = await requireWebhookAdmin(db, organisationId, userId);
  if (!admin.emailVerified) throw new WebhookError("unverified");
  return admin;
}

async function requireEndpoint(db: Deps["db"], organisationId: string, userId: string, id: string, sends: boolean) {
  await (sends ? requireSendingAdmin : requireWebhookAdmin)(db, organisationId, userId);
  const endpoint = await repo.findEndpoint(db, id);
  if (!endpoint || endpoint.organisationId !== organisationId) throw new WebhookError("notFound");
  return endpoint;
}

export async function getWebhooksPage(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
): Promise<{ organisation: string; endpoints: WebhookEndpointView[]; full: boolean; emailVerified: boolean }> {
  const { organisation, emailVerified } = await requireWebhookAdmin(deps.db, organisationId, userId);
  const endpoints: WebhookEndpointView[] = [];
  for (const e of await repo.listEndpoints(deps.db, organisationId)) {
    const log = await repo.listDeliveries(deps.db, e.id, DELIVERY_LOG_LINES);
    endpoints.push({
      id: e.id,
      url: e.url,
      secret: e.secret,
      events: e.events.split(",") as WebhookEventType[],
      enabled: e.enabled === 1,
      disabledReason: e.disabledReason === "failing" ? "failing" : e.disabledReason === "admin" ? "admin" : null,
      createdAt: e.createdAt,
      failingSince: e.failingSince,
      deliveries: log.map((d) => ({
        id: d.id,
        eventId: d.eventId,
        eventType: d.eventType,
        attemptedAt: d.attemptedAt,
        statusCode: d.statusCode,
        durationMs: d.durationMs,
        ok: d.ok === 1,
      })),
    });
  }
  return { organisation, endpoints, full: endpoints.length >= WEBHOOK_ENDPOINTS_MAX, emailVerified };
}

/**
 * Adds an endpoint: the URL checked now (https, public addresses; it is checked again on
 * every delivery), a new secret. Answers its id. A verified admin only.
 */
export async function addEndpoint(
  deps: Ctx,
  userId: string,
  organisationId: string,
  input: { url: string; events: readonly WebhookEventType[] },
  resolve?: (hostname: string) => Promise<string[]>,
): Promise<string> {
  await requireSendingAdmin(deps.db, organisationId, userId);
  if (input.events.length === 0) throw new WebhookError("events.none");
  const problem = await checkEndpoint(input.url, deps.config.webhooks.allowHosts, resolve);
  if (problem) throw new WebhookError(`url.${problem}`);
  if ((await repo.listEndpoints(deps.db, organisationId)).length >= WEBHOOK_ENDPOINTS_MAX) {
    throw new WebhookError("tooMany", { max: WEBHOOK_ENDPOINTS_MAX });
  }
  const id = `we_${randomBytes(16).toString("base64url").slice(0, 22)}`;
  await repo.insertEndpoint(deps.db, {
    id,
    organisationId,
    url: new URL(input.url).toString(),
    secret: newWebhookSecret(),
    events: [...new Set(input.events)].join(","),
    enabled: 1,
    disabledReason: null,
    createdAt: deps.clock(),
    createdBy: userId,
    failingSince: null,
  });
  return id;
}

/** Switches an endpoint on (its failing forgotten; a verified admin only) or off; nothing when it already is. */
export async function setEndpointEnabled(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
  id: string,
  enabled: boolean,
): Promise<void> {
  await requireEndpoint(deps.db, organisationId, userId, id, enabled);
  await repo.setEnabled(deps.db, id, enabled, enabled ? null : "admin");
}

export async function deleteEndpoint(deps: Pick<Deps, "db">, userId: string, organisationId: string, id: string) {
  await requireEndpoint(deps.db, organisationId, userId, id, false);
  await repo.deleteEndpoint(deps.db, id);
}

/** "Send a test event": a `webhook.test` event to this endpoint alone (enabled ones only; a verified admin). */
export async function sendTestEvent(deps: Ctx, userId: string, organisationId: string, id: string): Promise<void> {
  const endpoint = await requireEndpoint(deps.db, organisationId, userId, id, true);
  if (!endpoint.enabled) throw new WebhookError("disabled");
  await enqueueTestEvent(deps.db, endpoint, deps.clock());
  wakeOutbox("webhook");
}

/** "Resend": the same event (same id, same body, a new signature) delivered once more (a verified admin). */
export async function resendEvent(
  deps: Ctx,
  userId: string,
  organisationId: string,
  id: string,
  eventId: string,
): Promise<void> {
  const endpoint = await requireEndpoint(deps.db, organisationId, userId, id, true);
  if (!endpoint.enabled) throw new WebhookError("disabled");
  const message = await repo.findMessage(deps.db, endpoint.id, eventId);
  if (!message) throw new WebhookError("notFound");
  await queueDelivery(deps.db, endpoint, message.eventId, message.eventType, deps.clock());
  wakeOutbox("webhook");
}
