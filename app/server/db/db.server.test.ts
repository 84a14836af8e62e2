import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase, withStatementCache } from "./db.server";

/** A counter of how often SQLite was asked to prepare, around a real in-memory database. */
function counted() {
  const sqlite = new SqliteDatabase(":memory:");
  const texts: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => {
    texts.push(text);
    return prepare(text);
  }) as typeof sqlite.prepare;
  return { sqlite, texts };
}

describe("SQLite statement cache (decision 021)", () => {
  it("prepares each SQL text once, and its reuse returns the rows of the new parameters", async () => {
    const { sqlite, texts } = counted();
    const db = new Kysely<{ t: { n: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    await sql`create table t (n integer)`.execute(db);
    for (let n = 1; n <= 5; n++) await db.insertInto("t").values({ n }).execute();
    const big = await db.selectFrom("t").select("n").where("n", ">", 3).orderBy("n").execute();
    const small = await db.selectFrom("t").select("n").where("n", ">", 1).orderBy("n").execute();
    expect(big.map((r) => r.n)).toEqual([4, 5]);
    expect(small.map((r) => r.n)).toEqual([2, 3, 4, 5]);
    expect(texts.filter((t) => t.startsWith("insert"))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith("select"))).toHaveLength(1);
    await db.destroy();
  });

  it("a statement still being iterated is not handed out again; a schema change is picked up", async () => {
    const { sqlite, texts } = counted();
    const cache = withStatementCache(sqlite);
    sqlite.exec("create table t (n integer); insert into t values (1), (2)");
    const open = cache.prepare("select * from t order by n");
    const rows = open.iterate([]);
    rows.next(); // still open: busy
    const other = cache.prepare("select * from t order by n");
    expect(other).not.toBe(open);
    expect(other.all([])).toEqual([{ n: 1 }, { n: 2 }]);
    rows.return?.();
    expect(cache.prepare("select * from t order by n")).toBe(open);
    sqlite.exec("alter table t add column m integer");
    expect(cache.prepare("select * from t order by n").all([])).toEqual([
      { n: 1, m: null },
      { n: 2, m: null },
    ]);
    expect(texts.filter((t) => t.startsWith("select"))).toHaveLength(2);
    sqlite.close();
  });

  it("keeps at most `size` statements, the least recently used go first", () => {
    const { sqlite, texts } = counted();
    const cache = withStatementCache(sqlite, 2);
    cache.prepare("select 1");
    cache.prepare("select 2");
    cache.prepare("select 1"); // kept
    cache.prepare("select 3"); // "select 2" goes
    cache.prepare("select 1"); // still kept
    cache.prepare("select 2"); // prepared again
    expect(texts).toEqual(["select 1", "select 2", "select 3", "select 2"]);
    sqlite.close();
  });
});

describe("SQLite transactions beside the scan writer thread (decision 021)", () => {
  it("a transaction that reads, then writes, succeeds while the writer thread wants to commit", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-begin-"));
    const handle = openDatabase({ kind: "sqlite", file: path.join(dir, "db.sqlite"), url: "" });
    try {
      await sql`create table t (n integer)`.execute(handle.db);
      await sql`insert into t values (1)`.execute(handle.db);
      let writerDone: Promise<number> | undefined;
      await handle.db.transaction().execute(async (trx) => {
        const before = await sql<{ c: number }>`select count(*) as c from t`.execute(trx);
        // The writer thread commits now if it can. With a deferred begin it could, and
        // this transaction's snapshot would be stale: its write below fails at once
        // (SQLITE_BUSY_SNAPSHOT). An immediate begin holds the lock: the writer waits.
        writerDone = handle.writer!.run("insert into t values (?)", [[2]]);
        await Promise.race([writerDone, new Promise((r) => setTimeout(r, 300))]);
        await sql`insert into t values (${before.rows[0]!.c + 10})`.execute(trx);
      });
      expect(await writerDone).toBe(1);
      const rows = await sql<{ n: number }>`select n from t order by n`.execute(handle.db);
      expect(rows.rows.map((r) => r.n)).toEqual([1, 2, 11]);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
