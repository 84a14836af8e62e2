// The production server on a fresh SQLite database with one signed-up user and one paid
// item, for `npm run bench:weight` and `npm run lighthouse`.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { newItemId } from "../../app/lib/domain/ids";
import { newStickerCode } from "../../app/lib/domain/sticker-code";
import { parseConfig } from "../../app/server/config.server";
import { openDatabase } from "../../app/server/db/db.server";
import { insertItem } from "../../app/server/access/items.repository.server";
import { attachPhotos, preparePhotos } from "../../app/server/photos/photos.service.server";
import { photoStoreOf } from "../../app/server/photos/photo-store.server";
import { phonePhotoWithGps } from "../../tests/support/images";
import { buildIfNeeded, root } from "./build.mjs";
import { createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { acceptDpa, createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { DPA_VERSION } from "../../app/lib/domain/dpa";

export interface QualityServer {
  url: string;
  /** `name=value` of the signed-up user's session cookie. */
  sessionCookie: { name: string; value: string };
  itemId: string;
  itemName: string;
  /** A second paid item with one public photo (decision 035: the finder page with a photo). */
  photoItemId: string;
  /** A printed sticker nobody registered yet (decision 036): its /{id} is a finder page too. */
  stickerId: string;
  /** The sticker batch it belongs to (a staff page). */
  batchId: string;
  /** An organisation the user is the admin of (decision 022). */
  organisationId: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startQualityServer(): Promise<QualityServer> {
  buildIfNeeded();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-quality-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    NODE_ENV: "production",
    ALLOW_TEST_PAYMENTS: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    BASE_URL: url,
    DATABASE_URL: `file:${path.join(tmp, "quality.sqlite")}`,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    MAIL_OUTBOX_DIR: path.join(tmp, "outbox"),
    LOG_LEVEL: process.env.QUALITY_LOG_LEVEL || "warn",
  };
  const logFile = path.join(tmp, "server.log");
  const out = fs.openSync(logFile, "w");
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${fs.readFileSync(logFile, "utf8")}`);
      if (Date.now() > deadline) throw new Error(`server did not start:\n${fs.readFileSync(logFile, "utf8")}`);
      const up = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // A user made through the real registration form, as a person would.
    const email = `quality-${randomBytes(4).toString("hex")}@example.test`;
    const res = await fetch(`${url}/user/register`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Quality Check", email, password: `Pw-${randomBytes(6).toString("hex")}-9!` }),
    });
    const setCookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
    if (res.status !== 302 || !setCookie) throw new Error(`registration failed: ${res.status}`);
    const pair = setCookie.split(";")[0]!;
    const eq = pair.indexOf("=");

    // The paid item: payments are another workstream's flow, so the row is written
    // through the items repository with the paid columns set.
    const handle = openDatabase(parseConfig({ ...process.env, ...env }).database);
    const user = await handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const itemId = newItemId();
    const itemName = "Blue backpack with a laptop";
    const now = Date.now();
    await insertItem(handle.db, {
      id: itemId,
      code: newStickerCode(),
      owner: user.id,
      name: itemName,
      findFee: 200,
      currency: "SEK",
      prodType: "other",
      contactInfo: "Call +46 70 123 45 67",
      payment: "year",
      payed: true,
      paidUntil: now + 365 * 86_400_000,
      createdAt: now,
      updatedAt: now,
    });
    // The same item again with a photo: a detailed 3000 × 2000 phone photo with GPS, as an
    // owner's upload would be processed (the service the forms call).
    const photoItemId = newItemId();
    await insertItem(handle.db, {
      id: photoItemId,
      code: newStickerCode(),
      owner: user.id,
      name: itemName,
      findFee: 200,
      currency: "SEK",
      prodType: "other",
      contactInfo: "Call +46 70 123 45 67",
      payment: "year",
      payed: true,
      paidUntil: now + 365 * 86_400_000,
      createdAt: now,
      updatedAt: now,
    });
    // Two items not paid yet: /order lists them with a tick each (bench:weight, bench:interaction).
    for (const name of ["Red umbrella", "Black wallet"]) {
      await insertItem(handle.db, {
        id: newItemId(),
        code: newStickerCode(),
        owner: user.id,
        name,
        findFee: 100,
        currency: "SEK",
        prodType: "other",
        contactInfo: "Call +46 70 123 45 67",
        payment: "year",
        payed: false,
        paidUntil: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    const config = parseConfig({ ...process.env, ...env });
    // This process stores no finder pages and subscribes nothing: the server's own cache
    // follows by version.
    const deps = {
      db: handle.db,
      config,
      clock: () => Date.now(),
      events: { emit: () => Promise.resolve({ mails: 0 }) },
      photos: photoStoreOf(config),
    };
    await attachPhotos(
      deps,
      user.id,
      photoItemId,
      await preparePhotos(deps, user.id, [await phonePhotoWithGps()], { itemId: photoItemId }),
    );
    const batchId = await createBatch(deps, user.id, { size: 1, prepaidMonths: 12, label: "Bench" });
    const stickerId = (await getBatch(deps, batchId)).stickers[0]!.id;
    // The same user is also an organisation's admin and staff (verified, granted), so that
    // bench:weight reaches every signed-in page an owner, an organisation admin and staff have.
    await handle.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
    await grantAdmin(handle.db, email);
    const organisationId = await createOrganisation(deps, user.id, {
      name: "Quality Company AB",
      orgNumber: "556036-0793",
      billingEmail: email,
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "903 26",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    await handle.db
      .updateTable("organisations")
      .set({ billingEmailConfirmed: email })
      .where("id", "=", organisationId)
      .execute();
    await acceptDpa(deps, { id: user.id, name: "Quality Check", email }, organisationId, DPA_VERSION);
    await handle.close();
    return {
      url,
      sessionCookie: { name: pair.slice(0, eq), value: pair.slice(eq + 1) },
      itemId,
      itemName,
      photoItemId,
      stickerId,
      batchId,
      organisationId,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
