/**
 * What the webhooks hear on the event bus (decision 053), subscribed by runtime.server.ts:
 * each event of an organisation's item or order becomes a message for every endpoint of
 * the organisation that chose its type (enqueue.server.ts), in the announcer's transaction
 * where it announces inside one. Personal items and orders have no webhooks.
 */
import type {
  FinderMessaged,
  InvoiceOverdue,
  ItemLostModeChanged,
  ScanRecorded,
  OrderPaid,
  StickerClaimed,
} from "../domain-events";
import type { Deps } from "../service-deps.server";
import { toApiItem } from "../api/representation.server";
import type { WebhookEventType } from "~/lib/domain/webhooks";
import { endpointsFor, enqueueWebhookEvent } from "./enqueue.server";
import { toWebhookOrder, type WebhookData } from "./payloads.server";
import * as repo from "./webhooks.repository.server";

type HookDeps = Pick<Deps, "db" | "config" | "clock">;

/** An event about one item: its representation, and whatever else `extra` adds. */
async function itemEvent(
  deps: HookDeps,
  type: WebhookEventType,
  itemId: string,
  key: string,
  at: number,
  extra: Omit<WebhookData, "item"> | ((item: { lostAt: number | null }) => Omit<WebhookData, "item">) = {},
): Promise<void> {
  const item = await repo.findItemForApi(deps.db, itemId);
  if (!item?.organisationId) return;
  const more = typeof extra === "function" ? extra(item) : extra;
  const now = deps.clock();
  await enqueueWebhookEvent(deps.db, {
    organisationId: item.organisationId,
    type,
    key,
    at,
    now,
    data: () => ({ item: toApiItem(item, deps.config.baseUrl, now), ...more }),
  });
}

/** Every scan the log recorded (one per item per flush), whether or not anyone gets an alert. */
export async function webhookOfScan(e: ScanRecorded, deps: HookDeps): Promise<void> {
  // A personal item has no webhooks: no read for it (most scans at a million stickers).
  if (e.organisationId === null) return;
  // Nor an organisation without an endpoint for scans (most of them): no read of the item.
  if ((await endpointsFor(deps.db, e.organisationId, "item.scanned")).length === 0) return;
  return itemEvent(deps, "item.scanned", e.itemId, `${e.itemId}:${e.at}`, e.at, (item) => ({
    scan: { at: new Date(e.at).toISOString(), device: e.device, lang: e.scanLang, lost: item.lostAt != null },
  }));
}

export function webhookOfFinderMessage(e: FinderMessaged, deps: HookDeps): Promise<void> {
  const message = {
    id: e.messageId,
    conversationId: e.conversationId,
    author: "finder" as const,
    text: e.text,
    first: e.first,
    createdAt: new Date(e.at).toISOString(),
  };
  return itemEvent(deps, "message.received", e.itemId, e.messageId, e.at, { message });
}

export function webhookOfLost(e: ItemLostModeChanged, deps: HookDeps): Promise<void> {
  return itemEvent(deps, "item.lost", e.itemId, `${e.itemId}:${e.at}`, e.at);
}

export function webhookOfFound(e: ItemLostModeChanged, deps: HookDeps): Promise<void> {
  return itemEvent(deps, "item.found", e.itemId, `${e.itemId}:${e.at}`, e.at);
}

export function webhookOfStickerClaim(e: StickerClaimed, deps: HookDeps): Promise<void> {
  return itemEvent(deps, "sticker.claimed", e.itemId, e.itemId, e.at);
}

/** An order event: the order and its items. */
async function orderEvent(deps: HookDeps, type: WebhookEventType, e: OrderPaid | InvoiceOverdue): Promise<void> {
  if (!e.organisationId) return;
  const now = deps.clock();
  await enqueueWebhookEvent(deps.db, {
    organisationId: e.organisationId,
    type,
    key: e.orderId,
    at: e.at,
    now,
    data: async () => {
      const order = await repo.findOrderForPayload(deps.db, e.orderId);
      const items = [];
      for (const id of await repo.listOrderItemIds(deps.db, e.orderId)) {
        const item = await repo.findItemForApi(deps.db, id);
        if (item) items.push(toApiItem(item, deps.config.baseUrl, now));
      }
      return { ...(order ? { order: toWebhookOrder(order) } : {}), items };
    },
  });
}

export function webhookOfOrderPaid(e: OrderPaid, deps: HookDeps): Promise<void> {
  return orderEvent(deps, "order.paid", e);
}

export function webhookOfInvoiceOverdue(e: InvoiceOverdue, deps: HookDeps): Promise<void> {
  return orderEvent(deps, "invoice.overdue", e);
}
