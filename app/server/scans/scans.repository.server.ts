/**
 * SQL of the scan log, scan alerts and lost mode (migration 0011, decision 014). One query
 * per function, the same on SQLite and PostgreSQL; rows converted here (decision 004).
 */
import { CompiledQuery, PostgresAdapter, sql } from "kysely";
import { isLang } from "~/i18n/config";
import { toDeviceClass, type ScanEntry } from "~/lib/domain/scans";
import { readBool, type DB, type Dialect } from "../db/db.server";
import type { SqliteWriter } from "../db/sqlite-writer.server";
import { canManage } from "../access/item-access.repository.server";

export interface ScanRow {
  productId: string;
  scannedAt: number;
  lang: string;
  device: string;
}

/** Rows per statement: far below SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;
/**
 * Rows per statement of the flush's writes, with a turn of the event loop between
 * statements (decision 021): better-sqlite3 runs synchronously, and one 500-row insert
 * under load held every finder page back for tens of milliseconds (the bench's p99).
 */
const WRITE_CHUNK = 100;

/** Lets the requests waiting on the event loop run between two statements of a flush. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** The insert of `count` scans, each written only while its item exists (decision 042 point 18). */
function insertOfExistingItems(count: number): string {
  const rows = Array.from({ length: count }, () => "(?, ?, ?, ?)").join(", ");
  return (
    'insert into "item_scans" ("productId", "scannedAt", "lang", "device") ' +
    `select * from (values ${rows}) where exists (select 1 from "products" where "id" = "column1")`
  );
}

/**
 * The scans of a flush on the app's connection (SQLite in a file writes them with
 * insertScansOnWriter instead). PostgreSQL: insertScansPostgres below. SQLite in memory
 * (the service tests): multi-row inserts of WRITE_CHUNK rows (a turn of the event loop
 * between them), the statement's text built once per row count (decision 021; SQLite's
 * prepared statement is reused too, db.server.ts). The scan log has no foreign key
 * (migration 0047): a row of an item deleted since the flush checked is skipped here.
 */
export async function insertScans(db: DB, rows: ScanRow[], dialect: Dialect): Promise<void> {
  if (dialect === "postgres") return insertScansPostgres(db, rows);
  const texts = new Map<number, string>();
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    if (i > 0) await yieldToRequests();
    const part = rows.slice(i, i + WRITE_CHUNK);
    let text = texts.get(part.length);
    if (text === undefined) texts.set(part.length, (text = insertOfExistingItems(part.length)));
    await db.executeQuery(
      CompiledQuery.raw(
        text,
        part.flatMap((r) => [r.productId, r.scannedAt, r.lang, r.device]),
      ),
    );
  }
}

/** One scan, written only while its item exists (it may have been deleted since the flush checked; migration 0047). */
const INSERT_SCAN_OF_EXISTING_ITEM =
  'insert into "item_scans" ("productId", "scannedAt", "lang", "device") ' +
  'select ?, ?, ?, ? where exists (select 1 from "products" where "id" = ?)';

/**
 * SQLite in a file: the scans of a flush on the writer's thread, in one transaction, one
 * prepared single-row insert per scan (decision 021: on SQLite that costs half of a
 * 100-row insert per row). A row of a deleted item is skipped, never an error.
 */
export async function insertScansOnWriter(writer: SqliteWriter, rows: ScanRow[]): Promise<void> {
  await writer.run(
    INSERT_SCAN_OF_EXISTING_ITEM,
    rows.map((r) => [r.productId, r.scannedAt, r.lang, r.device, r.productId]),
  );
}

/** Rows per statement on PostgreSQL: four arrays, whatever the count. */
const PG_WRITE_CHUNK = 5000;

/**
 * PostgreSQL: the rows as four arrays (one parameter per column) and `unnest`: one short
 * statement for thousands of rows, instead of parsing and planning a 400-parameter insert
 * per 100 rows in the database (decision 021). The same rows as insertScans on SQLite.
 *
 * The scan log has no foreign key (migration 0047, decision 042 point 18): checked once
 * per row against a million items, it was most of the flush's cost. The statement checks
 * the batch's distinct items once instead, and takes the key-share lock the foreign key
 * took: an item being deleted makes the insert wait and then skip its rows, and an item
 * the insert locked is deleted only after the insert commits, when the deletion's trigger
 * sees the new rows and deletes them too. No scan outlives its item.
 */
async function insertScansPostgres(db: DB, rows: ScanRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += PG_WRITE_CHUNK) {
    if (i > 0) await yieldToRequests();
    const part = rows.slice(i, i + PG_WRITE_CHUNK);
    const items = [...new Set(part.map((r) => r.productId))];
    await sql`
      with live as (select id from products where id = any(${items}::text[]) for key share)
      insert into item_scans ("productId", "scannedAt", "lang", "device")
      select u.* from unnest(
        ${part.map((r) => r.productId)}::text[],
        ${part.map((r) => r.scannedAt)}::bigint[],
        ${part.map((r) => r.lang)}::text[],
        ${part.map((r) => r.device)}::text[]
      ) as u("productId", "scannedAt", "lang", "device")
      where u."productId" in (select id from live)`.execute(db);
  }
}

/**
 * Items among `ids` that still exist (an item may have been deleted since it was scanned),
 * each with its organisation (null for a personal item).
 */
export async function existingItems(db: DB, ids: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const part of chunks(ids)) {
    const rows = await db.selectFrom("products").select(["id", "organisationId"]).where("id", "in", part).execute();
    for (const r of rows) out.set(r.id, r.organisationId);
  }
  return out;
}

/**
 * The dashboard's "last scanned" of a batch's items: one statement per 100 items, all set
 * to `at` (the batch's latest scan, at most one flush interval later than an item's own:
 * the card shows minutes). It only ever moves forward, so two instances' flushes arriving
 * out of order cannot move it back. A CASE per item would cost SQLite items × items
 * comparisons inside the write lock.
 */
export async function setLastScanned(db: DB, ids: string[], at: number): Promise<void> {
  for (let i = 0; i < ids.length; i += WRITE_CHUNK) {
    const part = ids.slice(i, i + WRITE_CHUNK);
    if (i > 0) await yieldToRequests();
    await db
      .updateTable("products")
      .set({ lastScannedAt: at })
      .where("id", "in", part)
      .where((eb) => eb.or([eb("lastScannedAt", "is", null), eb("lastScannedAt", "<", at)]))
      .execute();
  }
}

export async function listRecentScans(db: DB, itemId: string, limit: number): Promise<ScanEntry[]> {
  const rows = await db
    .selectFrom("item_scans")
    .select(["scannedAt", "lang", "device"])
    .where("productId", "=", itemId)
    .orderBy("scannedAt", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    at: Number(r.scannedAt),
    lang: isLang(r.lang) ? r.lang : "en",
    device: toDeviceClass(r.device),
  }));
}

export interface AlertTarget {
  id: string;
  name: string;
  owner: string;
  /** null: a personal item (its owner is its one recipient). */
  organisationId: string | null;
  payed: boolean;
  paidUntil: number | null;
  scanAlerts: boolean;
  lost: boolean;
}

/** Items among `ids` that may need a mail: alerts on or lost when `paidScans`, any otherwise. */
export async function findAlertTargets(db: DB, ids: string[], paidScans: boolean): Promise<AlertTarget[]> {
  const rows = [];
  for (const part of chunks(ids)) {
    let q = db
      .selectFrom("products")
      .select(["id", "name", "owner", "organisationId", "payed", "paidUntil", "scanAlerts", "lostAt"])
      .where("id", "in", part);
    if (paidScans) q = q.where((eb) => eb.or([eb("scanAlerts", "=", 1), eb("lostAt", "is not", null)]));
    rows.push(...(await q.execute()));
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner: r.owner,
    organisationId: r.organisationId,
    payed: Number(r.payed) === 1,
    paidUntil: r.paidUntil == null ? null : Number(r.paidUntil),
    scanAlerts: Number(r.scanAlerts) === 1,
    lost: r.lostAt != null,
  }));
}

/**
 * The throttle, decided by the database: sets the item's `column` to `now` only when it
 * was never set or was set at least `windowMs` ago. Of several instances (or flushes)
 * racing, exactly one sees a changed row and sends the mail.
 */
export async function claimAlert(
  db: DB,
  itemId: string,
  column: AlertColumn,
  now: number,
  windowMs: number,
): Promise<boolean> {
  const r = await claimOf(db, column, now, windowMs).where("id", "=", itemId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

type AlertColumn = "scanAlertedAt" | "inactiveAlertedAt";

/** The throttle's update: `column` set to `now` where it was never set or set at least `windowMs` ago. */
function claimOf(db: DB, column: AlertColumn, now: number, windowMs: number) {
  return db
    .updateTable("products")
    .set({ [column]: now })
    .where((eb) => eb.or([eb(column, "is", null), eb(column, "<=", now - windowMs)]));
}

/**
 * claimAlert for many items at once, in the caller's transaction: the ids of those whose
 * `column` was set to `now`. The same race holds (of two flushes, one sees each row
 * changed). On PostgreSQL the rows are locked in id order first: two instances claiming
 * overlapping items each in its own plan's order could otherwise deadlock.
 */
export async function claimAlerts(
  db: DB,
  itemIds: string[],
  column: AlertColumn,
  now: number,
  windowMs: number,
): Promise<Set<string>> {
  const claimed = new Set<string>();
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const part of chunks(itemIds.toSorted())) {
    if (postgres) {
      await db.selectFrom("products").select("id").where("id", "in", part).orderBy("id").forNoKeyUpdate().execute();
    }
    const rows = await claimOf(db, column, now, windowMs).where("id", "in", part).returning("id").execute();
    for (const r of rows) claimed.add(r.id);
  }
  return claimed;
}

export interface OwnerContact {
  email: string;
  emailVerified: boolean;
  name: string;
  language: string | null;
}

/** The account contacts of `userIds`, by user id (a user that no longer exists is missing). */
export async function findOwnerContacts(db: DB, userIds: string[]): Promise<Map<string, OwnerContact>> {
  const out = new Map<string, OwnerContact>();
  for (const part of chunks(userIds)) {
    const rows = await db
      .selectFrom("user")
      .select(["id", "email", "emailVerified", "name", "language"])
      .where("id", "in", part)
      .execute();
    // better-auth's column: boolean on PostgreSQL, 0/1 on SQLite.
    for (const { id, ...row } of rows) out.set(id, { ...row, emailVerified: readBool(row.emailVerified) });
  }
  return out;
}

/** The item's lost-mode start (null: not lost), or undefined when there is no such item. */
export async function findLostAt(db: DB, id: string): Promise<number | null | undefined> {
  const row = await db.selectFrom("products").select("lostAt").where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : row.lostAt === null ? null : Number(row.lostAt);
}

/**
 * Lost mode on (`lostAt` = now, kept if already lost) or off, only on a row the user may
 * manage (decision 026).
 * `updatedAt` moves so other instances' finder-page caches see a new version.
 */
export async function writeItemLost(db: DB, userId: string, id: string, lost: boolean, now: number): Promise<boolean> {
  const r = await db
    .updateTable("products")
    .set({
      lostAt: lost ? sql<number>`coalesce(${sql.ref("lostAt")}, ${now})` : null,
      updatedAt: now,
    })
    .where("id", "=", id)
    .where(canManage(userId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Rows per statement when housekeeping deletes old scans (decision 042). */
export const SCAN_DELETE_BATCH = 5000;

/**
 * Scans logged before `before` (housekeeping), oldest first, about SCAN_DELETE_BATCH rows
 * per statement with a pause between statements: at ten million scans a year's worth is
 * millions of rows, and one statement would hold SQLite's write lock (or keep one
 * PostgreSQL transaction and a core busy) for as long as it takes, while finders scan.
 * The pause lasts as long as the batch took (at least 5 ms), so a catch-up of millions of
 * rows uses at most half of the database's time and the finder page keeps the rest.
 * Each batch ends at the scan time of its last row (found through the index on
 * scannedAt), so the statements are the same on both databases.
 */
export async function deleteScansBefore(
  db: DB,
  before: number,
  opts: { batch?: number; pause?: (tookMs: number) => Promise<void> } = {},
): Promise<number> {
  const batch = opts.batch ?? SCAN_DELETE_BATCH;
  const pause =
    opts.pause ?? ((tookMs: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(5, tookMs))));
  let deleted = 0;
  for (;;) {
    const started = performance.now();
    const edge = await db
      .selectFrom("item_scans")
      .select("scannedAt")
      .where("scannedAt", "<", before)
      .orderBy("scannedAt")
      .offset(batch - 1)
      .limit(1)
      .executeTakeFirst();
    const r = await db
      .deleteFrom("item_scans")
      .where("scannedAt", edge ? "<=" : "<", edge ? Number(edge.scannedAt) : before)
      .where("scannedAt", "<", before)
      .executeTakeFirst();
    deleted += Number(r.numDeletedRows);
    if (!edge) return deleted;
    await pause(performance.now() - started);
  }
}
