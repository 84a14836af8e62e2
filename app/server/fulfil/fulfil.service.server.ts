/**
 * Sticker fulfilment rules (decision 015): the typeable-code lookup for finders, the staff
 * queue, what goes on the sticker and label sheets, marking shipments shipped (with the
 * owner's mail) and replacement stickers. No HTTP here (decision 011).
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import type { Address } from "~/lib/domain/address";
import { newItemId } from "~/lib/domain/ids";
import { isItemPaid } from "~/lib/domain/paid";
import { addMonths } from "~/lib/domain/pricing";
import { newStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { findManagedItem, idOrCodeTaken } from "../access/items.repository.server";
import { logger } from "../logger.server";
import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import * as repo from "./fulfil.repository.server";
import { enqueueShippedMail } from "./fulfil.mail.server";

export type FulfilErrorCode =
  | "code.invalid"
  | "code.unknown"
  | "code.replaced"
  | "rateLimited"
  | "shipments.none"
  | "shipments.tooMany"
  | "shipments.unknown"
  | "tracking.invalid"
  | "replacement.notFound"
  | "replacement.notPaid"
  | "replacement.limit";

export class FulfilError extends ServiceError<FulfilErrorCode> {}

/**
 * Code lookups per client IP. A finder types one code, perhaps mistyped a few times;
 * 20 tries per 15 minutes is plenty for that and makes guessing one of 31^9 codes hopeless.
 */
export const FIND_RATE_RULE: RateRule = { name: "find:ip", limit: 20, windowMs: 15 * 60_000 };

/** Most shipments one sheet, label set or "mark shipped" takes (a few A4 pages of 24). */
export const MAX_SELECTED = 100;
/** Rows the queue shows per filter. */
export const QUEUE_LIMIT = 200;
/** One free replacement per item per this many months (decision 015). */
export const REPLACEMENT_INTERVAL_MONTHS = 6;

/** The item id behind a typed sticker code. Counts against FIND_RATE_RULE first. */
export async function findItemByCode(
  { db, config, clock }: Pick<Deps, "db" | "config" | "clock">,
  typed: string,
  ip: string,
): Promise<{ id: string }> {
  const limit = await rateLimiter(config, db)(FIND_RATE_RULE, ip, clock());
  if (!limit.ok) throw new FulfilError("rateLimited", { count: limit.retryAfterMinutes });
  const code = normalizeStickerCode(typed);
  if (!code) throw new FulfilError("code.invalid");
  const found = await repo.findByCode(db, code);
  if (!found) throw new FulfilError("code.unknown");
  if (found.kind === "retired") throw new FulfilError("code.replaced");
  return { id: found.id };
}

/** Whether `id` is the short URL of a sticker replaced with a new code (its page answers 410). */
export function isReplacedSticker({ db }: Pick<Deps, "db">, id: string): Promise<boolean> {
  return repo.isRetiredStickerId(db, id);
}

export interface QueueShipment extends repo.ShipmentRow {
  items: repo.StickerItem[];
}

async function withItems(db: Deps["db"], rows: repo.ShipmentRow[]): Promise<QueueShipment[]> {
  const orderIds = rows.filter((r) => r.kind === "order" && r.orderId).map((r) => r.orderId!);
  const itemIds = rows.filter((r) => r.kind === "replacement" && r.productId).map((r) => r.productId!);
  const [byOrder, byId] = await Promise.all([repo.listOrderItems(db, orderIds), repo.listItemsById(db, itemIds)]);
  return rows.map((r) => ({
    ...r,
    items:
      r.kind === "order"
        ? (byOrder.get(r.orderId!) ?? [])
        : [byId.get(r.productId!)].filter((x): x is repo.StickerItem => !!x),
  }));
}

/** The staff queue: pending (oldest first) or shipped (latest first), with counts. */
export async function shipmentQueue({ db }: Pick<Deps, "db">, status: repo.ShipmentStatus) {
  const [rows, pending, shipped, dropped] = await Promise.all([
    repo.listShipmentsByStatus(db, status, QUEUE_LIMIT),
    repo.countShipmentsByStatus(db, "pending"),
    repo.countShipmentsByStatus(db, "shipped"),
    repo.countShipmentsByStatus(db, "dropped"),
  ]);
  return { status, shipments: await withItems(db, rows), counts: { pending, shipped, dropped } };
}

export interface Selection {
  shipments: string[];
  orders: string[];
}

function checkSelection(sel: Selection) {
  const n = sel.shipments.length + sel.orders.length;
  if (n === 0) throw new FulfilError("shipments.none");
  if (n > MAX_SELECTED) throw new FulfilError("shipments.tooMany", { count: MAX_SELECTED });
}

/**
 * The selected shipments with their items, for the sticker sheet and address labels.
 * Every id must exist: a sheet silently missing an order would be posted incomplete.
 */
export async function selectedShipments({ db }: Pick<Deps, "db">, sel: Selection): Promise<QueueShipment[]> {
  checkSelection(sel);
  const rows = await repo.findShipments(db, sel.shipments, sel.orders);
  const ids = new Set(rows.map((r) => r.id));
  const orderIds = new Set(rows.filter((r) => r.kind === "order").map((r) => r.orderId));
  if (!sel.shipments.every((id) => ids.has(id)) || !sel.orders.every((id) => orderIds.has(id))) {
    throw new FulfilError("shipments.unknown");
  }
  return withItems(db, rows);
}

/** Letters, digits, spaces and dashes, as carriers print them. */
const TRACKING_RE = /^[A-Za-z0-9][A-Za-z0-9 -]{0,62}[A-Za-z0-9]$|^[A-Za-z0-9]$/;

/**
 * Marks the selected pending shipments shipped by `admin`, with an optional tracking
 * number, and queues one mail per shipment that changed (in the same transaction, so a
 * shipment is never shipped without its mail or mailed twice).
 */
export async function markShipped(
  { db, config, clock }: Pick<Deps, "db" | "config" | "clock">,
  admin: { id: string },
  sel: Selection,
  trackingInput: string,
): Promise<{ shipped: number }> {
  const tracking = trackingInput.trim() || null;
  if (tracking !== null && !TRACKING_RE.test(tracking)) throw new FulfilError("tracking.invalid");
  const rows = await selectedShipments({ db }, sel);
  const now = clock();
  const changed = await db.transaction().execute(async (trx) => {
    const ids = await repo.markShipmentsShipped(
      trx,
      rows.map((r) => r.id),
      admin.id,
      tracking,
      now,
    );
    const done = new Set(ids);
    for (const row of rows) {
      if (done.has(row.id))
        await enqueueShippedMail(trx, config, { ...row, shippedAt: now, trackingNumber: tracking }, now);
    }
    return ids.length;
  });
  return { shipped: changed };
}

export interface OwnerShipment {
  id: string;
  kind: repo.ShipmentKind;
  status: Exclude<repo.ShipmentStatus, "dropped">;
  createdAt: number;
  shippedAt: number | null;
  trackingNumber: string | null;
  items: Array<{ id: string; name: string }>;
}

/** The owner's sticker shipments for the dashboard (ordered / shipped on …, tracking). */
export async function ownerShipments({ db }: Pick<Deps, "db">, userId: string): Promise<OwnerShipment[]> {
  const rows = await withItems(db, await repo.listShipmentsOfUser(db, userId, 50));
  // A dropped shipment belongs to a deleted account (decision 051): no owner sees it.
  return rows
    .flatMap((r) => (r.status === "dropped" ? [] : [{ ...r, status: r.status }]))
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      createdAt: r.createdAt,
      shippedAt: r.shippedAt,
      trackingNumber: r.trackingNumber,
      items: r.items.map((i) => ({ id: i.id, name: i.name })),
    }));
}

export interface ReplacementView {
  id: string;
  name: string;
  /** When the next free replacement may be ordered, or null if now. */
  nextAllowedAt: number | null;
  address: Address | null;
}

async function replaceable({ db, clock }: Pick<Deps, "db" | "clock">, owner: string, id: string) {
  const item = await findManagedItem(db, owner, id);
  if (!item) throw new FulfilError("replacement.notFound");
  const now = clock();
  if (!isItemPaid(item, now)) throw new FulfilError("replacement.notPaid");
  const last = await repo.findReplacementSince(db, item.id, addMonths(now, -REPLACEMENT_INTERVAL_MONTHS));
  const nextAllowedAt = last ? addMonths(last.createdAt, REPLACEMENT_INTERVAL_MONTHS) : null;
  return { item, now, nextAllowedAt };
}

/** What the replacement page shows for the owner's paid item. */
export async function replacementView(
  deps: Pick<Deps, "db" | "clock">,
  owner: string,
  id: string,
): Promise<ReplacementView> {
  const { item, nextAllowedAt } = await replaceable(deps, owner, id);
  const order = await repo.findLatestPaidOrderOfItem(deps.db, item.id);
  return { id: item.id, name: item.name, nextAllowedAt, address: order?.address ?? null };
}

/**
 * Checked again inside the transaction, under the item's row lock (decision 029): two tabs
 * submitting at once make one replacement. Without the lock PostgreSQL let both
 * transactions read "none yet" and both insert; SQLite's write lock already serialised
 * them. An item no longer at this id was just given a new one by the other request.
 */
async function oneReplacementAtATime(trx: Deps["db"], itemId: string, now: number) {
  const limit = () => new FulfilError("replacement.limit", { date: addMonths(now, REPLACEMENT_INTERVAL_MONTHS) });
  if (!(await repo.lockItem(trx, itemId))) throw limit();
  if (await repo.findReplacementSince(trx, itemId, addMonths(now, -REPLACEMENT_INTERVAL_MONTHS))) throw limit();
}

/**
 * A replacement sticker for the owner's paid item: a reprint of the same code, or a new
 * id and code (the old sticker's URL and code then answer "replaced"). One per item per
 * REPLACEMENT_INTERVAL_MONTHS. Returns the item's id afterwards.
 */
export async function requestReplacement(
  deps: Pick<Deps, "db" | "clock" | "events">,
  owner: string,
  id: string,
  mode: repo.ReplacementMode,
): Promise<{ id: string }> {
  const { item, now, nextAllowedAt } = await replaceable(deps, owner, id);
  if (nextAllowedAt !== null) throw new FulfilError("replacement.limit", { date: nextAllowedAt });
  const order = await repo.findLatestPaidOrderOfItem(deps.db, item.id);
  let newId = item.id;
  if (mode === "newCode") {
    let code = newStickerCode();
    newId = newItemId();
    while (await idOrCodeTaken(deps.db, newId, code)) {
      newId = newItemId();
      code = newStickerCode();
    }
    const finalId = newId;
    const finalCode = code;
    await deps.db.transaction().execute(async (trx) => {
      await oneReplacementAtATime(trx, item.id, now);
      await repo.moveItemToNewId(trx, item.id, finalId, finalCode, now);
      await repo.insertReplacement(trx, {
        id: randomUUID(),
        productId: finalId,
        userId: owner,
        orderId: order?.id ?? null,
        address: order?.address ?? null,
        mode,
        createdAt: now,
      });
    });
    // The old stored finder pages must go: /{old id} now answers 410.
    await deps.events.emit("itemsChanged", { itemIds: [item.id] }, deps);
    logger.info({ item: finalId }, "sticker replaced with a new code");
  } else {
    await deps.db.transaction().execute(async (trx) => {
      await oneReplacementAtATime(trx, item.id, now);
      await repo.insertReplacement(trx, {
        id: randomUUID(),
        productId: item.id,
        userId: owner,
        orderId: order?.id ?? null,
        address: order?.address ?? null,
        mode,
        createdAt: now,
      });
    });
  }
  return { id: newId };
}

export type { Lang };
