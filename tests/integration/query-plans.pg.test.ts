/**
 * The hot queries use an index (decision 042): on a PostgreSQL database seeded like
 * `npm run bench:scale` (smaller, the same shape), every statement the finder page, the scan
 * log's insert, the dashboard (a big organisation's first page, a search, a filter), the
 * conversation list and the order page run is captured from the services themselves and
 * EXPLAINed; no plan may read a large table from end to end (a Seq Scan). A query that
 * loses its index shows here long before a million stickers make it slow.
 * PostgreSQL only (*.pg.test.ts): SQLite's planner is not the one production runs at scale.
 */
import {
  sql,
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type QueryId,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseItemQuery } from "../../app/lib/domain/item-query";
import type { DB } from "../../app/server/db/db.server";
import { getDashboard } from "../../app/server/items/dashboard.service.server";
import { finderPageStatement } from "../../app/server/items/finder-page.repository.server";
import { getItemPageView } from "../../app/server/items/items.service.server";
import { getOrderPage } from "../../app/server/orders/order-page.service.server";
import { countOwnerUnread, listOwnerConversations } from "../../app/server/relay/relay.service.server";
import { RELAY_FLOOD_KEY_PREFIX } from "../../app/server/relay/relay-limits.server";
import type { Runtime } from "../../app/server/runtime.server";
import { findDueRows, withClaim } from "../../app/server/outbox/outbox.repository.server";
import { insertScans, setLastScanned } from "../../app/server/scans/scans.repository.server";
import { systemClock, type Deps } from "../../app/server/service-deps.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { seedScale, seededItemId, seededOrganisationId, seededOwnerId, type ScaleSize } from "../support/scale-seed";

/**
 * Large enough that reading a whole table costs more than any index would. The big
 * organisation holds 5 % of the items, its share in `npm run bench:scale` (50,000 of a
 * million): with a third of them, reading the whole table is the cheaper plan and right.
 */
const SIZE: ScaleSize = {
  owners: 10_000,
  organisations: 50,
  items: 60_000,
  bigOrgItems: 3_000,
  orgItems: 50,
  scans: 300_000,
  conversations: 5_000,
  orders: 10_000,
};
/** The tables the seed fills with thousands of rows; a Seq Scan on any of them is a miss. */
const LARGE = new Set([
  "products",
  "item_scans",
  "user",
  "conversations",
  "conversation_messages",
  "orders",
  "order_items",
]);

let tdb: TestDatabase;
let rt: Runtime;

/** Collects the statements a service runs, to EXPLAIN them afterwards. */
class Capture implements KyselyPlugin {
  readonly queries: { node: RootOperationNode; queryId: QueryId }[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries.push({ node: args.node, queryId: args.queryId });
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Plans?: PlanNode[];
}

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

/** Runs `run` with Deps whose database records every statement; returns each one's plan. */
async function plansOf(run: (deps: Deps, db: DB) => Promise<unknown>) {
  const capture = new Capture();
  const db = rt.database.db.withPlugin(capture);
  await run({ ...depsOf(rt), db, clock: systemClock, writer: undefined }, db);
  const executor = rt.database.db.getExecutor();
  const out: { sql: string; scans: { type: string; table?: string; index?: string; cond?: string }[] }[] = [];
  for (const q of capture.queries) {
    const compiled = executor.compileQuery(q.node, q.queryId);
    if (/^\s*(begin|commit|rollback|savepoint|release)/i.test(compiled.sql)) continue;
    out.push(await planOf(compiled));
  }
  return out;
}

/** The tables one statement reads, and how. */
async function planOf(compiled: CompiledQuery) {
  const explained = await rt.database.db.executeQuery<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const plan = explained.rows[0]!["QUERY PLAN"][0]!.Plan;
  return {
    sql: compiled.sql,
    scans: [...walk(plan)]
      .filter((n) => n["Relation Name"] !== undefined)
      .map((n) => ({
        type: n["Node Type"],
        table: n["Relation Name"],
        index: n["Index Name"],
        cond: n["Index Cond"] ?? n["Recheck Cond"],
      })),
  };
}

/** Every large table the statements read is read through an index; returns the tables read. */
function expectIndexed(plans: Awaited<ReturnType<typeof plansOf>>): Set<string> {
  const read = new Set<string>();
  for (const p of plans) {
    for (const s of p.scans) {
      if (!s.table || !LARGE.has(s.table)) continue;
      read.add(s.table);
      expect(s.type, `${s.table} read by a ${s.type} in:\n${p.sql}`).not.toBe("Seq Scan");
    }
  }
  return read;
}

beforeAll(async () => {
  tdb = await createTestDatabase("plans");
  rt = await createTestRuntime(testEnv(tdb));
  await seedScale(rt.database.db, SIZE, Date.now());
}, 180_000);
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

describe("hot queries use an index on a seeded database", () => {
  it("the finder page reads its item by id", async () => {
    const plans = await plansOf((deps) => getItemPageView(deps, seededItemId(30_001), null));
    expect(expectIndexed(plans)).toContain("products");
  });

  it("a finder page that misses the cache reads its item, photo, organisation and flood counter in one indexed statement, alone or with fifteen others", async () => {
    // Run with db.executeQuery as compiled once (finder-page.repository.server.ts): no plugin sees it.
    const id = seededItemId(30_001);
    const plan = await planOf(finderPageStatement(rt.database.db, [id], RELAY_FLOOD_KEY_PREFIX));
    expect(expectIndexed([plan])).toContain("products");
    // Sixteen misses at once (finder-page-reads.server.ts): the same, one lookup per id.
    const ids = Array.from({ length: 16 }, (_, k) => seededItemId(40_001 + k * 997));
    const batch = await planOf(finderPageStatement(rt.database.db, ids, RELAY_FLOOD_KEY_PREFIX));
    expect(expectIndexed([batch])).toContain("products");
  });

  it("the scan log's insert finds no table to read end to end", async () => {
    const plans = await plansOf((_deps, db) =>
      insertScans(
        db,
        [1, 2, 3].map((n) => ({ productId: seededItemId(n), scannedAt: Date.now(), lang: "sv", device: "mobile" })),
        "postgres",
      ),
    );
    expect(plans.some((p) => /insert into/i.test(p.sql))).toBe(true);
    expectIndexed(plans);
  });

  it("the scan log's \"last scanned\" leaves every index of products alone: each row's new version stays on its page (fillfactor 90)", async () => {
    // Items spread over the table, as a second's scans are; counted inside the transaction.
    const ids = Array.from({ length: 200 }, (_, k) => seededItemId(1 + k * 293));
    const counts = await rt.database.db.transaction().execute(async (tx) => {
      await setLastScanned(tx, ids, Date.now());
      const { rows } = await sql<{ updated: string; hot: string }>`
        select pg_stat_get_xact_tuples_updated('products'::regclass) as updated,
               pg_stat_get_xact_tuples_hot_updated('products'::regclass) as hot`.execute(tx);
      return rows[0]!;
    });
    expect(Number(counts.updated)).toBe(ids.length);
    expect(Number(counts.hot)).toBe(ids.length);
  });

  it("an outbox claim reads the due rows along the lane's index, never by a bitmap scan, which would read every row sent since the last vacuum again at each claim", async () => {
    // 20,000 mails sent and five waiting: a claim's statements, planned as the worker runs them.
    const now = Date.now();
    await sql`
      insert into mail_outbox (id, channel, "to", "replyTo", subject, text, html, meta, target, "deliveryId", account,
        status, attempts, "nextAttemptAt", "lockedUntil", "lastError", "createdAt", "sentAt")
      select 'plan-' || n, 'email', 'owner' || n || '@example.test', null, 's', 't', null, null, 'example.test', null,
        null, case when n <= 5 then 'pending' else 'sent' end, 1, ${now}::bigint - n, null, null, ${now}::bigint - n,
        case when n <= 5 then null else ${now}::bigint end
      from generate_series(1, 20000) as n`.execute(rt.database.db);
    await sql`analyze mail_outbox`.execute(rt.database.db);
    const plans = await plansOf((_deps, db) =>
      withClaim(db, (tx) => findDueRows(tx, "email", now, { exceptTargets: [], exceptAccounts: [], limit: 32 })),
    );
    await sql`delete from mail_outbox where id like 'plan-%'`.execute(rt.database.db);
    const outboxScans = plans.flatMap((p) => p.scans.filter((s) => s.table === "mail_outbox"));
    expect(outboxScans.length).toBeGreaterThan(0);
    for (const s of outboxScans) expect(s.type).toBe("Index Scan");
  });

  it("a big organisation's dashboard: the first page, a search and a filter", async () => {
    for (const query of ["", "q=Laptop%20number%2012", "paid=unpaid&type=laptop", "lost=1", "page=40"]) {
      const plans = await plansOf((deps) =>
        getDashboard(deps, seededOwnerId(1), parseItemQuery(new URLSearchParams(query)), seededOrganisationId(1)),
      );
      expect(expectIndexed(plans), query).toContain("products");
      // The counts (and the name search in them) read the covering index alone (migrations 0041, 0046).
      const counts = plans.filter((p) => /count\(\*\) filter/i.test(p.sql));
      expect(counts.length, query).toBeGreaterThan(0);
      for (const c of counts)
        expect(
          c.scans.find((s) => s.table === "products"),
          c.sql,
        ).toMatchObject({ type: "Index Only Scan", index: "products_organisation_search_idx" });
      // A search's or a filter's page is found in the index alone; only its rows are read.
      if (query.startsWith("q=") || query.startsWith("paid=")) {
        const page = plans.find((p) => /as "page"/i.test(p.sql));
        expect(page?.scans, query).toContainEqual(
          expect.objectContaining({ type: "Index Only Scan", index: "products_organisation_search_idx" }),
        );
      }
    }
  });

  it("a personal dashboard and a search in it", async () => {
    for (const query of ["", "q=Keys"]) {
      const plans = await plansOf((deps) =>
        getDashboard(deps, seededOwnerId(4_321), parseItemQuery(new URLSearchParams(query)), null),
      );
      expect(expectIndexed(plans), query).toContain("products");
    }
  });

  it("the owner's conversation list", async () => {
    const plans = await plansOf((deps) => listOwnerConversations(deps, seededOwnerId(1)));
    expect(expectIndexed(plans)).toContain("conversations");
  });

  it("the unread count every signed-in page shows, for the big organisation's admin", async () => {
    const plans = await plansOf((deps) => countOwnerUnread(deps, seededOwnerId(1)));
    expect(expectIndexed(plans)).toContain("conversations");
  });

  it("the unread count of an owner in no organisation starts from their own items", async () => {
    const plans = await plansOf((deps) => countOwnerUnread(deps, seededOwnerId(4_321)));
    expect(expectIndexed(plans)).toContain("products");
  });

  it("the order page, personal and for the big organisation", async () => {
    const personal = await plansOf((deps) => getOrderPage(deps, seededOwnerId(4_321)));
    expect(expectIndexed(personal)).toContain("products");
    const organisation = await plansOf((deps) =>
      getOrderPage(deps, seededOwnerId(1), parseItemQuery(new URLSearchParams("")), {
        organisationId: seededOrganisationId(1),
      }),
    );
    expect(expectIndexed(organisation)).toContain("products");
  });
});

describe("on tables the planner has no statistics for", () => {
  // A server with autovacuum off (or a table just filled) plans on guesses. As a join, the
  // unread count then read every unread message in the database once per item of the user:
  // 7.4 s per signed-in page for a 6,000-item owner in a soak, growing with every message.
  let fresh: TestDatabase;
  let freshRt: Runtime;
  beforeAll(async () => {
    fresh = await createTestDatabase("plans-fresh");
    freshRt = await createTestRuntime(testEnv(fresh));
    const db = freshRt.database.db;
    for (const table of ["products", "conversations", "conversation_messages"])
      await sql`alter table ${sql.table(table)} set (autovacuum_enabled = false)`.execute(db);
    await seedScale(
      db,
      {
        ...SIZE,
        owners: 20,
        organisations: 2,
        items: 4_000,
        bigOrgItems: 100,
        scans: 0,
        conversations: 2_000,
        orders: 0,
      },
      Date.now(),
      { analyze: false },
    );
    // Most of them not read yet, as in a soak where nobody opens their messages.
    await sql`update conversation_messages set "readAt" = null where author = 'finder'`.execute(db);
  }, 120_000);
  afterAll(async () => {
    await freshRt?.database.close();
    await fresh?.drop();
  });

  it("the unread count walks the user's items and their conversations, never every unread message", async () => {
    const original = rt;
    rt = freshRt;
    try {
      for (const owner of [seededOwnerId(7), seededOwnerId(1)]) {
        const plans = await plansOf((deps) => countOwnerUnread(deps, owner));
        const messageScans = plans.flatMap((p) =>
          p.scans.filter((s) => s.table === "conversation_messages").map((s) => ({ ...s, sql: p.sql })),
        );
        expect(messageScans.length, owner).toBeGreaterThan(0);
        for (const s of messageScans)
          expect(s.cond ?? "", `${s.type} ${s.index ?? ""} in:\n${s.sql}`).toMatch(/conversationId/);
      }
    } finally {
      rt = original;
    }
  });
});
