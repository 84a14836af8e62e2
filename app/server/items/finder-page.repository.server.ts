/**
 * Everything an anonymous finder page needs, in one indexed read (decision 045, point 6):
 * the item, its organisation's name and desk contact, its first public photo's variants,
 * whether it earned the lapsed relay (lapsed-relay.repository.server.ts) and its flood
 * counter (the key is the relay's, relay-limits.server.ts). A page that misses the page
 * cache is made from this one row (or one per variant of the photo) instead of four
 * reads one after the other.
 *
 * One statement reads several items' pages at once (`readFinderPages`): the finder pages
 * that miss the cache at the same moment share one round trip and one executor start
 * (finder-page-reads.server.ts batches them). It is made in three sizes, for 1, 4 and 16
 * items (a shorter list repeats its first id), so that there are only three texts to keep.
 *
 * Each is built by Kysely once per database and reused with the request's values
 * (`compile()` with stand-ins, whose places in the parameters are then filled): the same
 * SQL on SQLite and PostgreSQL, not rebuilt per request. Both databases keep them
 * prepared: SQLite as every statement (withStatementCache), PostgreSQL as the named
 * statements `finder_page`, `finder_page_4` and `finder_page_16` on each connection, so
 * each is parsed and planned once per connection rather than once per page (a seven-table
 * plan; decision 045, point 6).
 */
import { PostgresAdapter, sql, type CompiledQuery, type InferResult } from "kysely";
import type { DB } from "../db/db.server";
import { keepPreparedOnPostgres, readBool } from "../db/db.server";
import { toItem, type Item } from "../access/items.repository.server";
import type { PhotoRow } from "../photos/photos.repository.server";
import { earnedLapsedRelay } from "./lapsed-relay.repository.server";

export interface FinderPageRead {
  item: Item;
  /** The item's organisation (null for a personal item). */
  organisation: { name: string; deskContact: string } | null;
  /** Its first public photo (by position), variants smallest first; null without one. */
  photo: PhotoRow | null;
  /** hasEarnedLapsedRelay of the item. */
  earnedLapsedRelay: boolean;
  /** Its flood counter (app_rate_limits' row under the key given), null without one. */
  floodCounter: { count: number; windowStart: number } | null;
}

/** The most items one statement reads; a longer list is read in several. */
export const MAX_FINDER_PAGE_BATCH = 16;
/** The sizes the statement is made in: a read of n items takes the smallest that holds them. */
const FINDER_PAGE_BATCH_SIZES = [1, 4, MAX_FINDER_PAGE_BATCH];

/** Stand-ins compiled into the statement: their places in its parameters take the request's values. */
const standIn = (n: number) => `\u0000finder-page-item-id-${n}`;
const FLOOD_KEY_PREFIX = "\u0000finder-page-flood-key-prefix";

/**
 * The statement for `size` items. The flood counter's key is `floodKeyPrefix` and the
 * item's id in lower case (rateLimitKey's form; ids are ASCII letters and digits, so SQL's
 * lower() and JavaScript's agree on both databases).
 */
function statement(db: DB, size: number) {
  return db
    .selectFrom("products as i")
    .leftJoin("organisations as o", "o.id", "i.organisationId")
    .leftJoin("item_photos as p", (join) =>
      join.on((eb) =>
        eb(
          "p.id",
          "=",
          eb
            .selectFrom("item_photos as fp")
            .select("fp.id")
            .whereRef("fp.itemId", "=", "i.id")
            .where("fp.private", "=", 0)
            // A photo is listed with its variants (photos.repository's inner join): one without any is none.
            .where((w) =>
              w.exists(w.selectFrom("photo_variants as fv").select("fv.photoId").whereRef("fv.photoId", "=", "fp.id")),
            )
            .orderBy("fp.position")
            .orderBy("fp.id")
            .limit(1),
        ),
      ),
    )
    .leftJoin("photo_variants as v", "v.photoId", "p.id")
    .leftJoin("app_rate_limits as rl", (join) =>
      join.on("rl.key", "=", sql<string>`cast(${FLOOD_KEY_PREFIX} as text) || lower(${sql.ref("i.id")})`),
    )
    .selectAll("i")
    .select([
      "o.name as orgName",
      "o.deskContact as orgDeskContact",
      "p.id as photoId",
      "p.position as photoPosition",
      "p.createdAt as photoCreatedAt",
      "v.nominal as variantNominal",
      "v.width as variantWidth",
      "v.height as variantHeight",
      "v.hash as variantHash",
      "v.size as variantSize",
      "rl.count as floodCount",
      "rl.windowStart as floodWindowStart",
    ])
    .select((eb) => earnedLapsedRelay(eb.ref("i.id")).as("earnedLapsedRelay"))
    .where(
      "i.id",
      "in",
      Array.from({ length: size }, (_, n) => standIn(n)),
    )
    .orderBy("v.nominal");
}
type Row = InferResult<ReturnType<typeof statement>>[number];

interface Compiled {
  query: CompiledQuery<Row>;
  /** Where each item's id goes in the query's parameters. */
  places: number[];
  /** Where the flood key's prefix goes. */
  prefixAt: number;
}
const compiled = new WeakMap<DB, Map<number, Compiled>>();
function compiledFor(db: DB, size: number): Compiled {
  let ofDb = compiled.get(db);
  if (!ofDb) compiled.set(db, (ofDb = new Map()));
  let found = ofDb.get(size);
  if (!found) {
    const query = statement(db, size).compile();
    const placeOf = (value: string) => {
      const at = query.parameters.indexOf(value);
      if (at < 0 || query.parameters.lastIndexOf(value) !== at)
        throw new Error("the finder page's statement must take each value once");
      return at;
    };
    const places = Array.from({ length: size }, (_, n) => placeOf(standIn(n)));
    const prefixAt = placeOf(FLOOD_KEY_PREFIX);
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      keepPreparedOnPostgres(query.sql, size === 1 ? "finder_page" : `finder_page_${size}`);
    found = { query, places, prefixAt };
    ofDb.set(size, found);
  }
  return found;
}

/**
 * The statement readFinderPages runs for up to 16 `itemIds` (also for EXPLAIN:
 * query-plans.pg.test.ts): that of the smallest size that holds them, the rest of its
 * places taking the first id again.
 */
export function finderPageStatement(db: DB, itemIds: readonly string[], floodKeyPrefix: string): CompiledQuery<Row> {
  const size = FINDER_PAGE_BATCH_SIZES.find((s) => s >= itemIds.length);
  if (!size || itemIds.length === 0)
    throw new Error(`the finder page's statement reads 1 to ${MAX_FINDER_PAGE_BATCH} items`);
  const { query, places, prefixAt } = compiledFor(db, size);
  const parameters = [...query.parameters];
  places.forEach((at, n) => (parameters[at] = itemIds[n] ?? itemIds[0]));
  parameters[prefixAt] = floodKeyPrefix;
  return { ...query, parameters };
}

/**
 * The finder pages' reads of `itemIds`, each item's flood counter under `floodKeyPrefix`
 * and its id in lower case (relayFloodKey). An id without an item has no entry.
 */
export async function readFinderPages(
  db: DB,
  itemIds: readonly string[],
  floodKeyPrefix: string,
): Promise<Map<string, FinderPageRead>> {
  const reads = new Map<string, FinderPageRead>();
  for (let from = 0; from < itemIds.length; from += MAX_FINDER_PAGE_BATCH) {
    const chunk = itemIds.slice(from, from + MAX_FINDER_PAGE_BATCH);
    const { rows } = await db.executeQuery<Row>(finderPageStatement(db, chunk, floodKeyPrefix));
    const rowsOf = new Map<string, Row[]>();
    for (const row of rows) {
      const same = rowsOf.get(row.id);
      if (same) same.push(row);
      else rowsOf.set(row.id, [row]);
    }
    for (const [id, same] of rowsOf) reads.set(id, readOf(same));
  }
  return reads;
}

/** One item's read from its rows (one per variant of its photo, smallest first). */
function readOf(rows: Row[]): FinderPageRead {
  const first = rows[0]!;
  let photo: PhotoRow | null = null;
  if (first.photoId !== null) {
    photo = {
      id: first.photoId,
      itemId: first.id,
      position: Number(first.photoPosition),
      private: false,
      createdAt: Number(first.photoCreatedAt),
      variants: [],
    };
    for (const r of rows)
      if (r.variantNominal !== null)
        photo.variants.push({
          nominal: Number(r.variantNominal),
          width: Number(r.variantWidth),
          height: Number(r.variantHeight),
          hash: r.variantHash!,
          size: Number(r.variantSize),
        });
  }
  if (photo?.variants.length === 0) photo = null;
  return {
    item: toItem(first),
    organisation: first.orgName === null ? null : { name: first.orgName, deskContact: first.orgDeskContact! },
    photo,
    earnedLapsedRelay: readBool(first.earnedLapsedRelay),
    floodCounter:
      first.floodCount === null
        ? null
        : { count: Number(first.floodCount), windowStart: Number(first.floodWindowStart) },
  };
}
