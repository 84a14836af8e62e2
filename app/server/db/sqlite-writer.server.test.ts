import SqliteDatabase from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteWriter, SQLITE_PRAGMAS, type SqliteWriter } from "./sqlite-writer.server";

let dir: string;
let writer: SqliteWriter | undefined;
let app: SqliteDatabase.Database | undefined;

/** A database file with the app's settings, opened as the app opens it (the other connection). */
function database() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-writer-"));
  const file = path.join(dir, "db.sqlite");
  app = new SqliteDatabase(file);
  for (const pragma of SQLITE_PRAGMAS) app.pragma(pragma);
  app.exec(`create table items (id text primary key);
    create table scans (item text not null references items(id), n integer not null);
    insert into items values ('a'), ('b');`);
  writer = openSqliteWriter(file);
  return { file, app, writer };
}

afterEach(async () => {
  await writer?.close();
  app?.close();
  writer = app = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite writer thread (decision 021)", () => {
  it("writes every row on its own connection, and the app's connection reads them at once", async () => {
    const { app, writer } = database();
    const rows = Array.from({ length: 2500 }, (_, n) => [n % 2 ? "a" : "b", n]);
    expect(await writer.run("insert into scans (item, n) values (?, ?)", rows)).toBe(2500);
    expect(app.prepare("select count(*) as c, sum(n) as s from scans").get()).toEqual({
      c: 2500,
      s: (2499 * 2500) / 2,
    });
  });

  it("the event loop keeps turning while a large batch is written", async () => {
    const { writer } = database();
    const rows = Array.from({ length: 100_000 }, (_, n) => ["a", n]);
    let turns = 0;
    let writing = true;
    const spin = () => {
      turns++;
      if (writing) setImmediate(spin);
    };
    const write = writer.run("insert into scans (item, n) values (?, ?)", rows);
    setImmediate(spin);
    await write;
    writing = false;
    // Written on the calling thread, the batch would leave no turn in between.
    expect(turns).toBeGreaterThan(10);
  });

  it("a batch with one bad row writes nothing and fails with the database's code; the next batch works", async () => {
    const { app, writer } = database();
    const bad = writer.run("insert into scans (item, n) values (?, ?)", [
      ["a", 1],
      ["gone", 2], // no such item: the foreign key is enforced on the writer's connection too
    ]);
    await expect(bad).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_FOREIGNKEY" });
    expect(app.prepare("select count(*) as c from scans").get()).toEqual({ c: 0 });
    expect(await writer.run("insert into scans (item, n) values (?, ?)", [["b", 3]])).toBe(1);
    expect(app.prepare("select item, n from scans").all()).toEqual([{ item: "b", n: 3 }]);
  });

  it("a write waits while the app's connection holds the write lock, then lands", async () => {
    const { app, writer } = database();
    app.exec("begin immediate; insert into scans values ('a', 1)");
    const later = writer.run("insert into scans (item, n) values (?, ?)", [["b", 2]]);
    await new Promise((r) => setTimeout(r, 200));
    expect(app.prepare("select count(*) as c from scans").get()).toEqual({ c: 1 });
    app.exec("commit");
    expect(await later).toBe(1);
    expect(app.prepare("select count(*) as c from scans").get()).toEqual({ c: 2 });
  });

  it("close waits for the writes under way", async () => {
    const { app, writer } = database();
    const rows = Array.from({ length: 20_000 }, (_, n) => ["a", n]);
    const write = writer.run("insert into scans (item, n) values (?, ?)", rows);
    await writer.close();
    expect(await write).toBe(20_000);
    expect(app.prepare("select count(*) as c from scans").get()).toEqual({ c: 20_000 });
  });

  it("a write after close is refused, and writes nothing", async () => {
    const { app, writer } = database();
    await writer.run("insert into scans (item, n) values (?, ?)", [["a", 1]]);
    await writer.close();
    await expect(writer.run("insert into scans (item, n) values (?, ?)", [["a", 2]])).rejects.toThrow(/closed/);
    expect(app.prepare("select count(*) as c from scans").get()).toEqual({ c: 1 });
  });
});
