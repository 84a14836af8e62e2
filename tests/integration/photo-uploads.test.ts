/**
 * Uploading item photos through the forms, as a browser without JavaScript sends them
 * (decision 035): a multipart POST with the field `photo`. Every bad file is
 * a translated 4xx that keeps what the owner typed and saves nothing, the server's memory
 * stays flat while it refuses them, a body over the limit still shows the form, uploads
 * per user are limited, and the finder page shows the first public photo only.
 */
import { strFromU8, unzipSync } from "fflate";
import http from "node:http";
import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTO_FORM_BODY_LIMIT } from "../../app/server/http/body-limit.server";
import { PHOTO_UPLOAD_LIMIT } from "../../app/server/photos/photos.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { httpClient, type HttpClient } from "../support/http";
import {
  animatedWebp,
  decompressionBombPng,
  heicBytes,
  pdfBytes,
  phonePhotoWithGps,
  sixteenMegabytes,
} from "../support/images";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

let db: TestDatabase;
let server: TestServer;
let rt: Runtime;
let web: HttpClient;
let photo: Buffer;

beforeAll(async () => {
  db = await createTestDatabase("photo_uploads");
  // Rate limits on: the upload limit is one of the rules here (each test has its own user).
  const env = testEnv(db, { RATE_LIMIT_DISABLED: "0" });
  server = await startServer(env);
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  web = httpClient(server.url);
  photo = await phonePhotoWithGps();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rt?.database.close();
  await db?.drop();
});

const TYPED = {
  name: "Svart mobil <b>med</b> skal",
  findFee: "250",
  approxValue: "",
  prodType: "mobile",
  contactInfo: "Ring 070-123 45 67 efter kl 17",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

function productForm(files: Array<{ bytes: Uint8Array; name: string; type?: string }>, fields = TYPED): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append("photo", new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "image/jpeg" }), f.name);
  return form;
}

function postForm(path: string, form: FormData, user: TestUser, lang: "en" | "sv" = "en") {
  return web.request(path, { method: "POST", body: form }, { cookie: user.cookie, lang });
}

async function itemsOf(user: TestUser) {
  return rt.database.db.selectFrom("products").select(["id", "name"]).where("owner", "=", user.id).execute();
}

async function photoCount(itemId: string) {
  const rows = await rt.database.db.selectFrom("item_photos").select("id").where("itemId", "=", itemId).execute();
  return rows.length;
}

/** The server's resident memory (its own process: startServer runs node server.js). */
function serverRss(): number {
  const status = fs.readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** HTML-escaped as React renders text. */
const escaped = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

describe("refused photos keep the form", () => {
  it("refuses every bad file with its translated 4xx, keeps what was typed, saves nothing, memory flat", async () => {
    const owner = await createUser(rt, { name: "Bad Files" });
    const good = await sharp(photo).jpeg().toBuffer();
    const bad: Array<{ label: string; bytes: Uint8Array; name: string; status: number; en: string; sv: string }> = [
      {
        label: "a PDF named .jpg",
        bytes: pdfBytes(),
        name: "receipt.jpg",
        status: 415,
        en: "Only JPEG, PNG and WebP photos can be uploaded",
        sv: "Bara foton i JPEG, PNG och WebP kan laddas upp",
      },
      {
        label: "a truncated JPEG",
        bytes: good.subarray(0, Math.floor(good.length / 2)),
        name: "half.jpg",
        status: 422,
        en: "the file is damaged or incomplete",
        sv: "filen är skadad eller ofullständig",
      },
      {
        label: "a 20,000 × 20,000 PNG of a few kilobytes",
        bytes: decompressionBombPng(),
        name: "bomb.png",
        status: 413,
        en: "more than 40 megapixels",
        sv: "mer än 40 megapixlar",
      },
      {
        label: "a 16 MB file",
        bytes: sixteenMegabytes(),
        name: "huge.jpg",
        status: 413,
        en: "larger than 15 MB",
        sv: "större än 15 MB",
      },
      {
        label: "an animated WebP",
        bytes: await animatedWebp(),
        name: "moving.webp",
        status: 415,
        en: "Animated images cannot be used",
        sv: "Animerade bilder kan inte användas",
      },
      {
        label: "a zero-byte file",
        bytes: new Uint8Array(0),
        name: "empty.jpg",
        status: 400,
        en: "The photo file is empty",
        sv: "Fotofilen är tom",
      },
      {
        label: "an unconverted HEIC",
        bytes: heicBytes(),
        name: "IMG_0001.HEIC",
        status: 415,
        en: "Apple's HEIC format",
        sv: "Apples HEIC-format",
      },
    ];
    // One round first, so what the server keeps for good (code, pools) is counted before.
    const rounds = 3;
    let rssAfterFirst = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [i, b] of bad.entries()) {
        const lang = (round + i) % 2 === 0 ? "en" : "sv";
        const res = await postForm("/product/register", productForm([b]), owner, lang);
        const html = await res.text();
        expect([b.label, res.status]).toEqual([b.label, b.status]);
        expect(html, b.label).toContain(escaped(lang === "en" ? b.en : b.sv).replace(/'/g, "&#x27;"));
        // Everything typed is back in the form.
        expect(html, b.label).toContain(escaped(TYPED.name));
        expect(html, b.label).toContain(TYPED.contactInfo);
        expect(html, b.label).toContain('value="250"');
      }
      if (round === 0) rssAfterFirst = serverRss();
    }
    expect(await itemsOf(owner)).toEqual([]);
    // Two more rounds of 16 MB files and 400-megapixel PNGs stay within what garbage
    // collection and the allocator let float (memory is not handed back at once):
    // decoding one bomb would take 400 MB or more. The float reached 146 MB once, in the
    // PostgreSQL leg on a loaded machine (2026-11-27), over the 128 MB this bound was.
    expect(serverRss() - rssAfterFirst).toBeLessThan(256 * 1024 * 1024);
  }, 120_000);

  it("refuses a photo on the edit form the same way and leaves the item as it was", async () => {
    const owner = await createUser(rt, { name: "Edit Bad" });
    const res = await postForm("/product/register", productForm([]), owner);
    expect(res.status).toBe(302);
    const [item] = await itemsOf(owner);
    const edit = await postForm(
      `/product/edit/${item!.id}`,
      productForm([{ bytes: pdfBytes(), name: "a.jpg" }], { ...TYPED, name: "Changed name", intent: "update" }),
      owner,
      "sv",
    );
    expect(edit.status).toBe(415);
    const html = await edit.text();
    expect(html).toContain("Bara foton i JPEG, PNG och WebP kan laddas upp");
    expect(html).toContain("Changed name");
    expect((await itemsOf(owner))[0]!.name).toBe(TYPED.name);
  });

  it("answers a body over the photo form's limit with 413 and the form itself, with the message", async () => {
    const owner = await createUser(rt, { name: "Too Large" });
    // Declared over the limit: answered at once, whatever follows is read and dropped.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/product/register`, {
        method: "POST",
        headers: {
          Cookie: owner.cookie,
          Origin: server.url,
          "Accept-Language": "sv-SE",
          "Content-Type": "multipart/form-data; boundary=x",
          "Content-Length": String(PHOTO_FORM_BODY_LIMIT + 1),
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode!, body: text });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(status).toBe(413);
    expect(body).toContain("Fotona som skickades var för stora tillsammans");
    expect(body).toContain('name="contactInfo"');
    expect(body).toMatch(/<form[^>]*class="product-form"[^>]*encType="multipart\/form-data"/i);
    expect(await itemsOf(owner)).toEqual([]);
  });
});

describe("uploading photos without JavaScript", () => {
  it("registers an item with a photo that the anonymous finder page shows: srcset, size, alt", async () => {
    const owner = await createUser(rt, { name: "Finder Photo" });
    const res = await postForm("/product/register", productForm([{ bytes: photo, name: "phone.jpg" }]), owner);
    expect(res.status).toBe(302);
    const [item] = await itemsOf(owner);
    expect(await photoCount(item!.id)).toBe(1);
    // Paid, so the finder sees the item.
    await rt.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: null })
      .where("id", "=", item!.id)
      .execute();
    const page = await (await web.get(`/product/${item!.id}`)).text();
    const img = /<img[^>]*class="item-photo"[^>]*>/.exec(page)?.[0] ?? "";
    expect(img).toMatch(
      /srcSet="\/product\/\w+\/photo\/[0-9a-f]{64}\.webp 320w, \/product\/\w+\/photo\/[0-9a-f]{64}\.webp 640w"/i,
    );
    expect(img).toMatch(/width="320" height="\d+"/);
    expect(img).toContain(`alt="Photo of ${escaped(TYPED.name)}"`);
    // Still no framework JavaScript on the finder page.
    expect(page).not.toMatch(/<script[^>]+src=/);
  });

  it("adds photos on the item's photo page, and a private one disappears for the finder (cache too)", async () => {
    const owner = await createUser(rt, { name: "Private Photo" });
    await postForm("/product/register", productForm([]), owner);
    const [item] = await itemsOf(owner);
    await rt.database.db
      .updateTable("products")
      .set({ payed: 1, paidUntil: null })
      .where("id", "=", item!.id)
      .execute();
    const upload = new FormData();
    upload.append("intent", "upload");
    upload.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "a.jpg");
    const added = await postForm(`/product/${item!.id}/photos`, upload, owner);
    expect([added.status, added.headers.get("location")]).toEqual([303, `/product/${item!.id}#photos`]);
    // Twice: the second answer comes from the finder page cache.
    for (let i = 0; i < 2; i++) expect(await (await web.get(`/${item!.id}`)).text()).toContain('class="item-photo"');
    const [row] = await rt.database.db.selectFrom("item_photos").select("id").where("itemId", "=", item!.id).execute();
    const priv = await web.post(
      `/product/${item!.id}/photos`,
      { intent: "private", photoId: row!.id },
      { cookie: owner.cookie },
    );
    expect(priv.status).toBe(303);
    for (let i = 0; i < 2; i++) {
      const page = await (await web.get(`/${item!.id}`)).text();
      expect(page).not.toContain('class="item-photo"');
      expect(page).not.toContain("/photo/");
    }
    // The owner still sees it, marked private.
    expect(await (await web.get(`/product/${item!.id}`, { cookie: owner.cookie })).text()).toContain("Private");
  });

  it("refuses a fourth photo and anyone else's upload to the item", async () => {
    const owner = await createUser(rt, { name: "Four Photos" });
    const stranger = await createUser(rt, { name: "Not Mine" });
    const three = productForm([0, 1, 2].map((i) => ({ bytes: photo, name: `p${i}.jpg` })));
    expect((await postForm("/product/register", three, owner)).status).toBe(302);
    const [item] = await itemsOf(owner);
    const one = () => {
      const f = new FormData();
      f.append("intent", "upload");
      f.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "d.jpg");
      return f;
    };
    const fourth = await postForm(`/product/${item!.id}/photos`, one(), owner, "sv");
    expect(fourth.status).toBe(409);
    expect(await fourth.text()).toContain("En sak kan ha högst 3 foton");
    expect((await postForm(`/product/${item!.id}/photos`, one(), stranger)).status).toBe(404);
    expect(await photoCount(item!.id)).toBe(3);
  });
});

describe("upload limits", () => {
  it(`counts every file before checking it: the ${PHOTO_UPLOAD_LIMIT.limit + 1}th upload in an hour is a translated 429`, async () => {
    const owner = await createUser(rt, { name: "Many Uploads" });
    await postForm("/product/register", productForm([]), owner);
    const [item] = await itemsOf(owner);
    const empty = () => {
      const f = new FormData();
      f.append("intent", "upload");
      f.append("photo", new Blob([]), "empty.jpg");
      return f;
    };
    // Refused files count too: the limit protects the work of looking at them.
    for (let i = 0; i < PHOTO_UPLOAD_LIMIT.limit; i++) {
      expect((await postForm(`/product/${item!.id}/photos`, empty(), owner)).status).toBe(400);
    }
    const res = await postForm(`/product/${item!.id}/photos`, empty(), owner, "sv");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.text()).toContain("Du har laddat upp många foton på kort tid");
  }, 60_000);

  it("says so, translated, when the account's photo storage is full", async () => {
    const owner = await createUser(rt, { name: "Storage Full" });
    await postForm("/product/register", productForm([]), owner);
    const [item] = await itemsOf(owner);
    // Fill the bound (PHOTO_STORAGE_MB, 50 by default) with one variant's recorded size.
    const bound = 50 * 1024 * 1024;
    await rt.database.db
      .insertInto("item_photos")
      .values({ id: `full-${item!.id}`, itemId: item!.id, position: 0, private: 1, createdAt: Date.now() })
      .execute();
    await rt.database.db
      .insertInto("photo_variants")
      .values({ photoId: `full-${item!.id}`, nominal: 1280, width: 1, height: 1, hash: "f".repeat(64), size: bound })
      .execute();
    const f = new FormData();
    f.append("intent", "upload");
    f.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "a.jpg");
    const res = await postForm(`/product/${item!.id}/photos`, f, owner);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("Your photos have reached the 50 MB your account can store");
  });
});

describe("the owner's side", () => {
  it("shows a lazy thumbnail of at most 10 KB on the dashboard card, counts photos in the CSV export and puts them in the data export's ZIP", async () => {
    const owner = await createUser(rt, { name: "Owner Side" });
    const two = productForm([0, 1].map((i) => ({ bytes: photo, name: `p${i}.jpg` })));
    expect((await postForm("/product/register", two, owner)).status).toBe(302);
    const [item] = await itemsOf(owner);

    const dashboard = await (await web.get("/dashboard", { cookie: owner.cookie })).text();
    const thumb = /<img[^>]*class="item-thumb[^"]*"[^>]*>/.exec(dashboard)?.[0] ?? "";
    expect(thumb).toContain('loading="lazy"');
    expect(thumb).toContain(`alt="Photo of ${escaped(TYPED.name)}"`);
    const src = /src="([^"]+)"/.exec(thumb)![1]!;
    const bytes = Buffer.from(await (await web.get(src, { cookie: owner.cookie })).arrayBuffer());
    expect((await sharp(bytes).metadata()).format).toBe("webp");
    expect(bytes.length).toBeLessThanOrEqual(10 * 1024);

    const csv = await (await web.get("/dashboard/export.csv", { cookie: owner.cookie })).text();
    expect(csv).toContain(",paid until,photos\r\n");
    expect(csv).toMatch(new RegExp(`,${item!.id},[^\\r\\n]*,2\\r\\n`));

    const res = await web.post("/account/export", {}, { cookie: owner.cookie });
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="hittad-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const jsonName = Object.keys(files).find((f) => f.endsWith(".json"))!;
    const data = JSON.parse(strFromU8(files[jsonName]!)) as {
      photos: Array<{ itemId: string; position: number; private: boolean; file: string }>;
    };
    expect(data.photos.map((p) => [p.itemId, p.position, p.private])).toEqual([
      [item!.id, 1, false],
      [item!.id, 2, false],
    ]);
    for (const p of data.photos) {
      const image = Buffer.from(files[p.file]!);
      const meta = await sharp(image).metadata();
      expect([meta.format, meta.width, meta.exif]).toEqual(["webp", 1280, undefined]);
    }
  });
});
