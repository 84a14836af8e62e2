/**
 * The restore drill (decision 048), on the suite's database (SQLite, or PostgreSQL in its
 * leg), with photos in S3 (the stand-in): while a load writes items, photos, finder
 * messages, orders and scans through a running server, `npm run backup` is run beside it;
 * the backup is restored with `npm run restore` into a fresh database and a fresh bucket; an
 * app started on them serves every write acknowledged before the backup began (items,
 * photos, conversations, orders and their receipts), and nothing half-written is there.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import {
  attachPhotos,
  listManagedPhotos,
  preparePhotos,
  type PreparedPhoto,
} from "../../app/server/photos/photos.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient, type HttpClient } from "../support/http";
import { phonePhotoWithGps } from "../support/images";
import { startS3StandIn, type S3StandIn } from "../support/s3";
import { startServer, type TestServer } from "../support/server";
import { ADDRESS } from "../support/service-fixtures";
import { createUser, type TestUser } from "../support/users";

const root = path.resolve(import.meta.dirname, "../..");
const WORKERS = 4;
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

let sourceDb: TestDatabase;
let targetDb: TestDatabase;
let bucketA: S3StandIn;
let bucketB: S3StandIn;
let source: TestServer;
let restored: TestServer | undefined;
let rt: Runtime;
let backupDir: string;

/** `npm run <script>` beside the test, without blocking the load's event loop. */
function npm(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", ...args], { cwd: root, env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

interface Ack {
  kind: "item" | "photo" | "message" | "order";
  at: number;
  owner: TestUser;
  /** item: its name; photo: its URL path; message: the finder's link; order: its id. */
  ref: string;
  text?: string;
}

interface Worker {
  owner: TestUser;
  photo: PreparedPhoto;
  /** Items this worker's owner made (id by name), and the paid one finders write about. */
  items: Map<string, string>;
  paidItem: string;
  photographed: Set<string>;
  /** Finder page views of the paid item, with when each was answered. */
  scans: number[];
}

async function paidItem(owner: TestUser, name: string) {
  const id = await createItem(
    depsOf(rt),
    owner.id,
    { name, findFee: 100, prodType: "other", contactInfo: "ring", payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

beforeAll(async () => {
  sourceDb = await createTestDatabase("drill_src");
  targetDb = await createTestDatabase("drill_dst", { empty: true });
  bucketA = await startS3StandIn();
  bucketB = await startS3StandIn();
  const env = testEnv(sourceDb, { RATE_LIMIT_DISABLED: "1", ...bucketA.env });
  source = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: source.url });
  backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-drill-"));
}, 60_000);
afterAll(async () => {
  await restored?.stop();
  await source?.stop();
  await rt?.database.close();
  await bucketA?.close();
  await bucketB?.close();
  await sourceDb?.drop();
  await targetDb?.drop();
  if (backupDir) fs.rmSync(backupDir, { recursive: true, force: true });
});

describe("restore drill", () => {
  it("a backup taken under load restores every write acknowledged before it began, and nothing half-written", async () => {
    const http = httpClient(source.url);
    const workers: Worker[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const owner = await createUser(rt, { name: `Drill Owner ${w}` });
      await keepOrderAddress(depsOf(rt), owner.id, { ...ADDRESS, email: owner.email }, false);
      // One photo made once (sharp is slow on a loaded machine), attached by every owner.
      const photo =
        workers[0]?.photo ??
        (
          await preparePhotos(depsOf(rt), owner.id, [await phonePhotoWithGps()], { newItem: { organisationId: null } })
        )[0]!;
      workers.push({
        owner,
        photo,
        items: new Map(),
        paidItem: await paidItem(owner, `drill-paid-${w}`),
        photographed: new Set(),
        scans: [],
      });
    }
    const acks: Ack[] = [];
    let stop = false;
    let n = 0;
    const ack = (a: Omit<Ack, "at">) => acks.push({ ...a, at: Date.now() });

    const step = async (w: Worker, http: HttpClient) => {
      const i = n++;
      const cookie = w.owner.cookie;
      switch (i % 5) {
        case 0: {
          const name = `drill-item-${i}`;
          const res = await http.post(
            "/product/register",
            { name, findFee: "10", prodType: "other", contactInfo: "drill", payment: "year", intent: "payLater" },
            { cookie },
          );
          if (res.status !== 302) return;
          const row = await rt.database.db
            .selectFrom("products")
            .select("id")
            .where("name", "=", name)
            .executeTakeFirst();
          if (row) w.items.set(name, row.id);
          ack({ kind: "item", owner: w.owner, ref: name });
          return;
        }
        case 1: {
          const item = [...w.items.values()].findLast((id) => !w.photographed.has(id));
          if (!item) return;
          w.photographed.add(item);
          await attachPhotos(depsOf(rt), w.owner.id, item, [w.photo]);
          const photos = await listManagedPhotos(depsOf(rt), w.owner.id, item);
          ack({ kind: "photo", owner: w.owner, ref: new URL(photos.at(-1)!.medium.url, source.url).pathname });
          return;
        }
        case 2: {
          const text = `drill message ${i}`;
          const res = await http.post(`/product/${w.paidItem}`, { message: text, contact: "" });
          const location = res.headers.get("location") ?? "";
          if (res.status === 302 && location.startsWith("/m/"))
            ack({ kind: "message", owner: w.owner, ref: location.slice(0, location.indexOf("?")), text });
          return;
        }
        case 3: {
          const item = [...w.items.values()].shift();
          if (!item) return;
          w.items.delete([...w.items.keys()][0]!);
          const order = await http.post("/order", { immediateStart: "yes", items: item, payment: "year" }, { cookie });
          const checkout = order.headers.get("location") ?? "";
          if (!checkout.startsWith("/order/checkout/")) return;
          const paid = await http.post(checkout, {}, { cookie });
          if (paid.status === 302)
            ack({ kind: "order", owner: w.owner, ref: checkout.slice("/order/checkout/".length) });
          return;
        }
        default: {
          // A phone's browser: bots are not counted as scans.
          const res = await http.get(`/product/${w.paidItem}`, { headers: { "User-Agent": PHONE } });
          await res.arrayBuffer();
          if (res.status === 200) w.scans.push(Date.now());
        }
      }
    };
    const load = Promise.all(
      workers.map(async (w) => {
        while (!stop) await step(w, http);
      }),
    );

    // Load until every kind of write was acknowledged at least once (seconds on a busy
    // machine), then back up beside it, then a little more load.
    const everyKind = () => new Set(acks.map((a) => a.kind)).size === 4;
    for (let waited = 0; !everyKind() && waited < 60_000; waited += 250) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 1000));
    const began = Date.now();
    const backup = await npm(["backup"], { DATABASE_URL: sourceDb.url, BACKUP_DIR: backupDir, ...bucketA.env });
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    expect(backup.code, backup.out).toBe(0);
    const [name] = fs.readdirSync(backupDir);
    const before = acks.filter((a) => a.at < began);
    const kinds = new Set(before.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(["item", "message", "order", "photo"]);
    expect(acks.length).toBeGreaterThan(before.length); // writes went on during the backup

    const restore = await npm(["restore", "--", path.join(backupDir, name!)], {
      DATABASE_URL: targetDb.url,
      ...bucketB.env,
    });
    expect(restore.code, restore.out).toBe(0);
    restored = await startServer(testEnv(targetDb, { RATE_LIMIT_DISABLED: "1", ...bucketB.env }));
    const after = httpClient(restored.url);

    for (const a of before) {
      const cookie = a.owner.cookie;
      if (a.kind === "item") {
        const dashboard = await (await after.get(`/dashboard?q=${encodeURIComponent(a.ref)}`, { cookie })).text();
        expect(dashboard, `item ${a.ref}`).toContain(a.ref);
      } else if (a.kind === "photo") {
        const res = await after.get(a.ref, { cookie });
        expect(res.status, `photo ${a.ref}`).toBe(200);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(/([0-9a-f]{64})\.webp$/.exec(a.ref)![1]);
      } else if (a.kind === "message") {
        const thread = await after.get(a.ref);
        expect(thread.status, `conversation ${a.ref}`).toBe(200);
        expect(await thread.text()).toContain(a.text);
      } else {
        const receipt = await after.get(`/order/${a.ref}/receipt`, { cookie });
        expect(receipt.status, `receipt of order ${a.ref}`).toBe(200);
      }
    }
    // Scans are written a second after the page (decision 014): those older are all there.
    const target = await createTestRuntime(testEnv(targetDb, { BASE_URL: restored.url, ...bucketB.env }));
    try {
      const db = target.database.db;
      for (const w of workers) {
        const { n } = await db
          .selectFrom("item_scans")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("productId", "=", w.paidItem)
          .executeTakeFirstOrThrow();
        expect(Number(n)).toBeGreaterThanOrEqual(w.scans.filter((t) => t < began - 1500).length);
      }
      // Nothing half-written: every paid order has its lines and its receipt, every
      // conversation its first message, every photo variant its bytes in the new bucket.
      const broken = await sql<{ what: string; id: string }>`
        select 'order without receipt' as what, o.id from orders o
          where o.status = 'paid' and not exists (select 1 from receipts r where r."orderId" = o.id)
        union all select 'order without lines', o.id from orders o
          where not exists (select 1 from order_items i where i."orderId" = o.id)
        union all select 'conversation without message', c.id from conversations c
          where not exists (select 1 from conversation_messages m where m."conversationId" = c.id)
        union all select 'variant without bytes', v.hash from photo_variants v
          where not exists (select 1 from photo_blobs b where b.hash = v.hash)`.execute(db);
      expect(broken.rows).toEqual([]);
      const blobs = await db.selectFrom("photo_blobs").select(["hash", "data"]).execute();
      expect(blobs.length).toBeGreaterThan(0);
      for (const b of blobs) expect(b.data === null && bucketB.objects.has(`photos/${b.hash}.webp`)).toBe(true);
    } finally {
      await target.database.close();
    }
  }, 180_000);
});
