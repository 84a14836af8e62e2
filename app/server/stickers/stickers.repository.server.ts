/**
 * SQL for claimable stickers (decision 036). Counters and instants are numbers on both
 * databases (decision 004); PostgreSQL's bigint comes back as a string, hence Number().
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";

export interface Batch {
  id: string;
  label: string;
  size: number;
  prepaidMonths: number | null;
  createdAt: number;
  voidedAt: number | null;
  claimed: number;
  voided: number;
}

export interface Sticker {
  id: string;
  code: string;
  batchId: string;
  prepaidMonths: number | null;
  voidedAt: number | null;
  claimedAt: number | null;
  productId: string | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const CHUNK = 1000;

/** Whether an unclaimed (or claimed) sticker holds this id or this code. */
export async function stickerIdOrCodeTaken(db: DB, id: string, code: string): Promise<boolean> {
  const row = await db
    .selectFrom("stickers")
    .select("id")
    .where((eb) => eb.or([eb("id", "=", id), eb("code", "=", code)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Of `ids` and `codes`, those any item, retired sticker or sticker already holds. */
export async function takenIdsAndCodes(db: DB, ids: string[], codes: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const idPart = ids.slice(i, i + CHUNK);
    const codePart = codes.slice(i, i + CHUNK);
    for (const table of ["products", "retired_stickers", "stickers"] as const) {
      const rows = await db
        .selectFrom(table)
        .select(["id", "code"])
        .where((eb) => eb.or([eb("id", "in", idPart), eb("code", "in", codePart)]))
        .execute();
      for (const r of rows) {
        taken.add(r.id);
        taken.add(r.code);
      }
    }
  }
  return taken;
}

export async function insertBatch(
  trx: DB,
  batch: {
    id: string;
    label: string;
    size: number;
    prepaidMonths: number | null;
    createdBy: string;
    createdAt: number;
  },
  stickers: { id: string; code: string }[],
): Promise<void> {
  await trx
    .insertInto("sticker_batches")
    .values({ ...batch, voidedAt: null })
    .execute();
  // 200 rows × 6 values stays far below SQLite's and PostgreSQL's bound-parameter limits.
  for (let i = 0; i < stickers.length; i += 200) {
    await trx
      .insertInto("stickers")
      .values(
        stickers
          .slice(i, i + 200)
          .map((s) => ({ ...s, batchId: batch.id, voidedAt: null, claimedAt: null, productId: null })),
      )
      .execute();
  }
}

function batchesWithCounts(db: DB) {
  return db.selectFrom("sticker_batches as b").select([
    "b.id",
    "b.label",
    "b.size",
    "b.prepaidMonths",
    "b.createdAt",
    "b.voidedAt",
    (eb) =>
      eb
        .selectFrom("stickers as s")
        .select(sql<number>`count(*)`.as("n"))
        .whereRef("s.batchId", "=", "b.id")
        .where("s.claimedAt", "is not", null)
        .as("claimed"),
    (eb) =>
      eb
        .selectFrom("stickers as s")
        .select(sql<number>`count(*)`.as("n"))
        .whereRef("s.batchId", "=", "b.id")
        .where("s.voidedAt", "is not", null)
        .as("voided"),
  ]);
}

function toBatch(r: {
  id: string;
  label: string;
  size: number;
  prepaidMonths: number | null;
  createdAt: number;
  voidedAt: number | null;
  claimed: number | null;
  voided: number | null;
}): Batch {
  return {
    id: r.id,
    label: r.label,
    size: Number(r.size),
    prepaidMonths: num(r.prepaidMonths),
    createdAt: Number(r.createdAt),
    voidedAt: num(r.voidedAt),
    claimed: Number(r.claimed ?? 0),
    voided: Number(r.voided ?? 0),
  };
}

/** The newest batches first, with how many of each were claimed and voided. */
export async function listBatches(db: DB, limit: number): Promise<Batch[]> {
  const rows = await batchesWithCounts(db).orderBy("b.createdAt", "desc").orderBy("b.id").limit(limit).execute();
  return rows.map(toBatch);
}

export async function findBatch(db: DB, id: string): Promise<Batch | undefined> {
  const row = await batchesWithCounts(db).where("b.id", "=", id).executeTakeFirst();
  return row && toBatch(row);
}

/** A batch's stickers in a stable order (the sheet and the CSV). */
export async function listBatchStickers(db: DB, batchId: string): Promise<Sticker[]> {
  const rows = await stickerQuery(db).where("s.batchId", "=", batchId).orderBy("s.id").execute();
  return rows.map(toSticker);
}

function stickerQuery(db: DB) {
  return db
    .selectFrom("stickers as s")
    .innerJoin("sticker_batches as b", "b.id", "s.batchId")
    .select(["s.id", "s.code", "s.batchId", "b.prepaidMonths", "s.voidedAt", "s.claimedAt", "s.productId"]);
}

function toSticker(r: {
  id: string;
  code: string;
  batchId: string;
  prepaidMonths: number | null;
  voidedAt: number | null;
  claimedAt: number | null;
  productId: string | null;
}): Sticker {
  return {
    ...r,
    prepaidMonths: num(r.prepaidMonths),
    voidedAt: num(r.voidedAt),
    claimedAt: num(r.claimedAt),
  };
}

/** What `/{id}` shows for an id that is a printed sticker, not an item: null when neither. */
export async function findUnclaimedStickerState(
  db: DB,
  id: string,
): Promise<{ state: "unclaimed" | "voided"; code: string } | null> {
  const s = await findStickerById(db, id);
  if (!s || s.claimedAt !== null) return null;
  return { state: s.voidedAt !== null ? "voided" : "unclaimed", code: s.code };
}

export async function findStickerById(db: DB, id: string): Promise<Sticker | undefined> {
  const row = await stickerQuery(db).where("s.id", "=", id).executeTakeFirst();
  return row && toSticker(row);
}

export async function findStickerByCode(db: DB, code: string): Promise<Sticker | undefined> {
  const row = await stickerQuery(db).where("s.code", "=", code).executeTakeFirst();
  return row && toSticker(row);
}

/** The stickers of these canonical codes (any state), chunked for the parameter limits. */
export async function findStickersByCodes(db: DB, codes: readonly string[]): Promise<Sticker[]> {
  const out: Sticker[] = [];
  for (let i = 0; i < codes.length; i += CHUNK) {
    const rows = await stickerQuery(db)
      .where("s.code", "in", codes.slice(i, i + CHUNK))
      .execute();
    out.push(...rows.map(toSticker));
  }
  return out;
}

/** The stickers of these ids (a batch file claimed whole, decision 036), in chunks. */
export async function findStickersByIds(db: DB, ids: readonly string[]): Promise<Sticker[]> {
  const out: Sticker[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await stickerQuery(db)
      .where("s.id", "in", ids.slice(i, i + CHUNK))
      .execute();
    out.push(...rows.map(toSticker));
  }
  return out;
}

/** The claimed sticker an item was made from, if any (the prepaid record). */
export async function findStickerOfItem(db: DB, itemId: string): Promise<Sticker | undefined> {
  const row = await stickerQuery(db).where("s.productId", "=", itemId).executeTakeFirst();
  return row && toSticker(row);
}

/** Which of these items were claimed from a prepaid sticker (decision 036). */
export async function listPrepaidClaimedItems(db: DB, productIds: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < productIds.length; i += 1000) {
    const rows = await db
      .selectFrom("stickers as s")
      .innerJoin("sticker_batches as b", "b.id", "s.batchId")
      .select("s.productId")
      .where("s.productId", "in", productIds.slice(i, i + 1000))
      .where("b.prepaidMonths", "is not", null)
      .execute();
    for (const r of rows) if (r.productId !== null) out.add(r.productId);
  }
  return out;
}

/**
 * Marks a sticker claimed if nobody has and it is not voided: the one conditional update
 * two concurrent claims race on (decision 036). True when this call claimed it.
 */
export async function markClaimed(trx: DB, id: string, now: number): Promise<boolean> {
  const r = await trx
    .updateTable("stickers")
    .set({ claimedAt: now, productId: id })
    .where("id", "=", id)
    .where("claimedAt", "is", null)
    .where("voidedAt", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Voids a batch and its unclaimed stickers (claimed ones stay the owners'). */
export async function voidBatch(db: DB, id: string, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("sticker_batches")
      .set({ voidedAt: now })
      .where("id", "=", id)
      .where("voidedAt", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable("stickers")
      .set({ voidedAt: now })
      .where("batchId", "=", id)
      .where("claimedAt", "is", null)
      .where("voidedAt", "is", null)
      .execute();
    return true;
  });
}

/** Voids one unclaimed sticker of a batch; false when claimed, voided or not there. */
export async function voidSticker(db: DB, batchId: string, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable("stickers")
    .set({ voidedAt: now })
    .where("id", "=", id)
    .where("batchId", "=", batchId)
    .where("claimedAt", "is", null)
    .where("voidedAt", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Whether every one of these items was made from a claimed sticker (no shipment needed). */
export async function allAreClaimedStickers(db: DB, itemIds: readonly string[]): Promise<boolean> {
  if (itemIds.length === 0) return false;
  let found = 0;
  for (let i = 0; i < itemIds.length; i += CHUNK) {
    const row = await db
      .selectFrom("stickers")
      .select(sql<number>`count(*)`.as("n"))
      .where("productId", "in", itemIds.slice(i, i + CHUNK))
      .executeTakeFirst();
    found += Number(row?.n ?? 0);
  }
  return found === itemIds.length;
}

/** Of these item ids, the organisation's items (claim mode's run list, decision 036). */
export async function listOrganisationItemsByIds(
  db: DB,
  organisationId: string,
  ids: readonly string[],
): Promise<{ id: string; code: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("products")
    .select(["id", "code", "name"])
    .where("organisationId", "=", organisationId)
    .where("id", "in", [...ids])
    .execute();
}

/** An item whose prepaid months end soon, for its reminder (decision 036). */
export interface PrepaidEnding {
  id: string;
  name: string;
  owner: string;
  paidUntil: number;
}

/**
 * Items claimed from a prepaid sticker whose paid period ends in (from, to], still active,
 * covered by no paid, invoiced or running order, and not yet reminded for this lead.
 */
export async function listPrepaidEnding(
  db: DB,
  window: { from: number; to: number; now: number },
  leadDays: number,
): Promise<PrepaidEnding[]> {
  const rows = await db
    .selectFrom("products as p")
    .innerJoin("stickers as s", "s.productId", "p.id")
    .innerJoin("sticker_batches as b", "b.id", "s.batchId")
    .select(["p.id", "p.name", "p.owner", "p.paidUntil"])
    .where("b.prepaidMonths", "is not", null)
    .where("p.payed", "=", 1)
    .where("p.paidUntil", ">", window.from)
    .where("p.paidUntil", "<=", window.to)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("order_items as oi")
            .innerJoin("orders as o", "o.id", "oi.orderId")
            .select("oi.productId")
            .whereRef("oi.productId", "=", "p.id")
            .where("o.status", "in", ["paid", "invoiced"])
            .where("o.lapsedAt", "is", null)
            .where("o.paidUntil", ">", window.now),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("prepaid_reminders as r")
            .select("r.productId")
            .whereRef("r.productId", "=", "p.id")
            .where("r.leadDays", "=", leadDays),
        ),
      ),
    )
    .limit(500)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, owner: r.owner, paidUntil: Number(r.paidUntil) }));
}

/** Records this item's reminder for this lead; false when another run already did. */
export async function claimPrepaidReminder(
  trx: DB,
  productId: string,
  leadDays: number,
  now: number,
): Promise<boolean> {
  const r = await trx
    .insertInto("prepaid_reminders")
    .values({ productId, leadDays, sentAt: now })
    .onConflict((oc) => oc.columns(["productId", "leadDays"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}
