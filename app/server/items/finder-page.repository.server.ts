/**
 * Everything an anonymous finder page needs, in one indexed read (decision 045, point 6):
 * the item, its organisation's name and desk contact, its first public photo's variants,
 * whether it earned the lapsed relay (lapsed-relay.repository.server.ts) and its flood
 * counter (the key is the relay's, relay-limits.server.ts). A page that misses the page
 * cache is made from this one row (or one per variant of the photo) instead of four
 * reads one after the other.
 *
 * The statement is built by Kysely once per database and reused with the request's
 * values (`compile()` with stand-ins, whose places in the parameters are then filled):
 * the same SQL on SQLite and PostgreSQL, not rebuilt per request. Both databases keep it
 * prepared: SQLite as every statement (withStatementCache), PostgreSQL as the named
 * statement `finder_page` on each connection, so it is parsed and planned once per
 * connection rather than once per page (a seven-table plan; decision 045, point 6).
 */
import { PostgresAdapter, type CompiledQuery, type InferResult } from "kysely";
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

/** Stand-ins compiled into the statement: their places in its parameters take the request's values. */
const ITEM_ID = "\u0000finder-page-item-id";
const FLOOD_KEY = "\u0000finder-page-flood-key";

function statement(db: DB) {
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
    .leftJoin("app_rate_limits as rl", (join) => join.on("rl.key", "=", FLOOD_KEY))
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
    .where("i.id", "=", ITEM_ID)
    .orderBy("v.nominal");
}
type Row = InferResult<ReturnType<typeof statement>>[number];

const compiled = new WeakMap<DB, CompiledQuery<Row>>();
function compiledFor(db: DB): CompiledQuery<Row> {
  let query = compiled.get(db);
  if (!query) {
    query = statement(db).compile();
    for (const standIn of [ITEM_ID, FLOOD_KEY])
      if (query.parameters.filter((p) => p === standIn).length !== 1)
        throw new Error("the finder page's statement must take each value once");
    if (db.getExecutor().adapter instanceof PostgresAdapter) keepPreparedOnPostgres(query.sql, "finder_page");
    compiled.set(db, query);
  }
  return query;
}

/** The statement readFinderPage runs for `itemId` and `floodKey` (also for EXPLAIN: query-plans.pg.test.ts). */
export function finderPageStatement(db: DB, itemId: string, floodKey: string): CompiledQuery<Row> {
  const query = compiledFor(db);
  const parameters = query.parameters.map((p) => (p === ITEM_ID ? itemId : p === FLOOD_KEY ? floodKey : p));
  return { ...query, parameters };
}

/** The finder page's read of the item `itemId`, its flood counter under `floodKey`; undefined when there is no such item. */
export async function readFinderPage(db: DB, itemId: string, floodKey: string): Promise<FinderPageRead | undefined> {
  const { rows } = await db.executeQuery<Row>(finderPageStatement(db, itemId, floodKey));
  const first = rows[0];
  if (!first) return undefined;
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
