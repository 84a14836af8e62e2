/**
 * The README's first "Operating Hittad" steps, exactly, with the real scripts (decision
 * 048): `npm start`, create data, `npm run backup`, stop, delete the data folder,
 * `npm run restore -- <backup>`, `npm start`: everything is there, photos included, and
 * everyone is still signed in (the generated auth secret came back with the backup). The
 * data folder is a temporary one instead of ./data. SQLite, as a fresh clone runs; the
 * PostgreSQL leg skips it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readEverything, seedEverything, AWKWARD_TEXT } from "../support/backup-fixtures";
import { createTestRuntime, usingPostgres } from "../support/database";
import { httpClient } from "../support/http";
import { freePort } from "../support/server";

/** The tables the steps above do not write after the data was made. */
const KEPT = [
  "user",
  "products",
  "item_photos",
  "photo_variants",
  "photo_blobs",
  "orders",
  "order_items",
  "receipts",
  "conversations",
  "conversation_messages",
  "item_scans",
];
const root = path.resolve(import.meta.dirname, "../..");
const home = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-clone-"));
const data = path.join(home, "data");
const running: ChildProcess[] = [];
afterAll(() => {
  // A start that a failed assertion left running.
  for (const p of running) if (p.exitCode === null && p.signalCode === null) process.kill(-p.pid!, "SIGKILL");
  fs.rmSync(home, { recursive: true, force: true });
});

/** The variables a fresh clone would leave at their defaults, pointed at the temporary data folder. */
const env = (port: number) => ({
  // A shell's environment: nothing of the test run's own settings.
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PORT: String(port),
  DATABASE_URL: `file:${data}/hittad.sqlite`,
  BACKUP_DIR: `${data}/backups`,
  MAIL_OUTBOX_DIR: `${data}/outbox`,
  SMS_OUTBOX_DIR: `${data}/sms-outbox`,
  // The suite has just built: `npm start` would otherwise check the sources' times.
  SKIP_BUILD: "1",
});

function npm(args: string[], port: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", ...args], { cwd: root, env: env(port) });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** `npm start`, until it prints where it runs; stopped with SIGTERM to its process group. */
async function npmStart(port: number) {
  const child = spawn("npm", ["start"], { cwd: root, env: env(port), detached: true });
  running.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${out}`)), 60_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      if (out.includes("Hittad is running at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
  return {
    url: `http://localhost:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        process.kill(-child.pid!, "SIGTERM");
      }),
  };
}

describe.skipIf(usingPostgres())("from a fresh clone: back up, lose the data folder, restore", () => {
  it("npm start, data, npm run backup, stop, rm -rf data, npm run restore, npm start: everything is there", async () => {
    const port = await freePort();
    const first = await npmStart(port);
    const rt = await createTestRuntime({ DATABASE_URL: `file:${data}/hittad.sqlite`, BASE_URL: first.url });
    const seeded = await seedEverything(rt);
    const before = await readEverything(rt.database.db, "sqlite");
    await rt.database.close();

    const backup = await npm(["backup"], port);
    expect(backup.code, backup.out).toBe(0);
    const made = /Backup written: (\S+)/.exec(backup.out)![1]!;
    expect(path.dirname(made)).toBe(`${data}/backups`);
    await first.stop();
    // Off the machine, as the README says, then the data folder is lost.
    const offsite = path.join(home, "offsite", path.basename(made));
    fs.cpSync(made, offsite, { recursive: true });
    fs.rmSync(data, { recursive: true });

    const restore = await npm(["restore", "--", offsite], port);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/Restored .* \d+ tables, \d+ rows/);
    const second = await npmStart(port);
    try {
      const http = httpClient(second.url);
      const cookie = seeded.owner.cookie;
      const dashboard = await http.get("/dashboard", { cookie });
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("Red bike");
      const photo = await http.get(seeded.photoPath, { cookie });
      expect(photo.status).toBe(200);
      expect(photo.headers.get("content-type")).toBe("image/webp");
      const thread = await (await http.get(`/m/${seeded.finderToken}`)).text();
      expect(thread).toContain("bakom bänken 🚲");
      expect(AWKWARD_TEXT).toContain("bakom bänken 🚲");
      expect((await http.get(`/order/${seeded.orderId}/receipt`, { cookie })).status).toBe(200);
      const login = await http.post("/login", { email: seeded.owner.email, password: seeded.owner.password });
      expect(login.status).toBe(302);
      const after = await createTestRuntime({ DATABASE_URL: `file:${data}/hittad.sqlite`, BASE_URL: second.url });
      try {
        const everything = await readEverything(after.database.db, "sqlite");
        // Row for row as before the backup (mail was sent and sessions made since, elsewhere).
        for (const table of KEPT) expect(everything[table], table).toEqual(before[table]);
      } finally {
        await after.database.close();
      }
    } finally {
      await second.stop();
    }
  }, 180_000);
});
