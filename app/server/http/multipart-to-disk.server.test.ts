import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MultipartError, receiveMultipart, type ReceiveOptions } from "./multipart-to-disk.server";
import { UploadSlots } from "./upload-slots.server";

/** A real HTTP server in this process: each request is read by `receiveMultipart` with the test's options. */
let server: http.Server;
let url: string;
let handle: (req: http.IncomingMessage) => Promise<unknown>;
let dir: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    handle(req).then(
      (value) => res.end(JSON.stringify({ ok: value })),
      (err: unknown) => res.end(JSON.stringify({ error: err instanceof MultipartError ? "multipart" : String(err) })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function options(over: Partial<ReceiveOptions<string>> = {}): ReceiveOptions<string> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "multipart-test-"));
  return {
    dir,
    fileField: "photo",
    fileCap: 1001,
    maxFiles: 3,
    fieldBytes: 10_000,
    admitFile: async () => null,
    ...over,
  };
}

async function post(form: FormData): Promise<{ ok?: unknown; error?: string }> {
  const res = await fetch(url, { method: "POST", body: form });
  return (await res.json()) as { ok?: unknown; error?: string };
}

const file = (bytes: number, name = "a.jpg") => new File([new Uint8Array(bytes).fill(7)], name, { type: "image/jpeg" });

describe("a multipart body read as it streams", () => {
  it("keeps the text fields, writes each photo to its own file, and drops other files and empty inputs", async () => {
    const opts = options();
    let seenOnDisk: string[] | null = null;
    opts.admitFile = async () => {
      // Admitted before any of the file is read: nothing of it is on disk yet.
      seenOnDisk ??= fs.readdirSync(dir);
      return null;
    };
    handle = (req) => receiveMultipart(req, opts);
    const form = new FormData();
    form.append("name", "Röd cykel");
    form.append("photo", file(500));
    form.append("other", file(300, "b.jpg"));
    form.append("photo", new File([], "", { type: "application/octet-stream" }));
    form.append("intent", "upload");
    const { ok } = (await post(form)) as { ok: { fields: unknown; files: Array<{ path: string; size: number }> } };
    expect(seenOnDisk).toEqual([]);
    expect(ok.fields).toEqual([
      ["name", "Röd cykel"],
      ["intent", "upload"],
    ]);
    expect(ok.files).toHaveLength(1);
    expect(ok.files[0]).toMatchObject({ name: "a.jpg", type: "image/jpeg", size: 500 });
    expect(fs.readFileSync(ok.files[0]!.path)).toEqual(Buffer.alloc(500, 7));
  });

  it("keeps no more than the cap of a file too large, so it shows as one byte over", async () => {
    handle = (req) => receiveMultipart(req, options());
    const form = new FormData();
    form.append("photo", file(50_000));
    const { ok } = (await post(form)) as { ok: { files: Array<{ path: string; size: number }> } };
    expect(ok.files[0]!.size).toBe(1001);
    expect(fs.statSync(ok.files[0]!.path).size).toBe(1001);
  });

  it("after the first refusal drops every later file unasked, and still reads the fields", async () => {
    let asked = 0;
    handle = (req) => receiveMultipart(req, options({ admitFile: async () => (++asked === 2 ? "rateLimited" : null) }));
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append("photo", file(100, `p${i}.jpg`));
    form.append("name", "kept");
    const { ok } = (await post(form)) as { ok: { refusal: string; fields: unknown; files: Array<{ path: unknown }> } };
    expect(asked).toBe(2);
    expect(ok.refusal).toBe("rateLimited");
    expect(ok.files.map((f) => f.path === null)).toEqual([false, true, true]);
    expect(ok.fields).toEqual([["name", "kept"]]);
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  it("lists one file too many without its bytes, unasked", async () => {
    let asked = 0;
    handle = (req) =>
      receiveMultipart(
        req,
        options({
          maxFiles: 2,
          admitFile: async () => {
            asked++;
            return null;
          },
        }),
      );
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append("photo", file(100, `p${i}.jpg`));
    const { ok } = (await post(form)) as { ok: { files: Array<{ path: unknown }> } };
    expect(asked).toBe(2);
    expect(ok.files.map((f) => f.path === null)).toEqual([false, false, true]);
  });

  it("refuses text fields past their bound, and a body that is not multipart", async () => {
    handle = (req) => receiveMultipart(req, options({ fieldBytes: 100 }));
    const form = new FormData();
    form.append("contactInfo", "x".repeat(200));
    expect(await post(form)).toEqual({ error: "multipart" });
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "multipart/form-data" }, body: "x" });
    expect(await res.json()).toEqual({ error: "multipart" });
  });

  it("gives up when the client goes away mid-file", async () => {
    let settled: Promise<unknown> = Promise.resolve();
    handle = (req) => {
      settled = receiveMultipart(req, options({ fileCap: 10_000_000 })).catch((err: unknown) => err);
      return new Promise(() => {});
    };
    const req = http.request(url, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    req.on("error", () => {});
    req.write('--x\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n');
    req.write(Buffer.alloc(100_000, 1));
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    expect(await settled).toBeInstanceOf(MultipartError);
  });
});

describe("upload slots", () => {
  it("gives at most the bound per key and overall, at once, and takes each slot back once", () => {
    const slots = new UploadSlots(2, 3);
    const a1 = slots.tryTake("a")!;
    const a2 = slots.tryTake("a")!;
    expect(slots.tryTake("a")).toBeNull();
    const b1 = slots.tryTake("b")!;
    expect(slots.tryTake("c")).toBeNull();
    a1();
    a1();
    expect(slots.inUse).toBe(2);
    expect(slots.tryTake("a")).not.toBeNull();
    a2();
    b1();
    expect(slots.inUse).toBe(1);
  });
});
