import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeOutboxFile } from "./outbox-file.server";

let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "outbox-file-")), "outbox");
});
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

describe("writeOutboxFile", () => {
  it("a reader watching the folder sees the whole message or no file, never a part of it", async () => {
    const body = Buffer.alloc(32 * 1024 * 1024, "a");
    let done = false;
    const writing = writeOutboxFile(dir, "1-big.eml", body).finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".eml")) : [];
      for (const f of files) seen.push(fs.statSync(path.join(dir, f)).size);
      await new Promise((r) => setImmediate(r));
    }
    await writing;
    expect(seen.every((size) => size === body.length)).toBe(true);
    expect(fs.readFileSync(path.join(dir, "1-big.eml")).equals(body)).toBe(true);
  });

  it("keeps the file and its folder owner-only and leaves no temporary file", async () => {
    const file = await writeOutboxFile(dir, "2-sms.txt", "To: +46700000000\n\nHej\n");
    expect(file).toBe(path.join(dir, "2-sms.txt"));
    expect(fs.readFileSync(file, "utf8")).toBe("To: +46700000000\n\nHej\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual(["2-sms.txt"]);
  });

  it("removes the temporary file when the message cannot be put in place", async () => {
    // A folder where the file should go: the rename fails.
    fs.mkdirSync(path.join(dir, "3-taken.eml"), { recursive: true });
    fs.writeFileSync(path.join(dir, "3-taken.eml", "x"), "");
    await expect(writeOutboxFile(dir, "3-taken.eml", "body")).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(["3-taken.eml"]);
  });

  it("a folder removed after the first message is made again for the next, owner-only", async () => {
    await writeOutboxFile(dir, "4-first.eml", "one");
    fs.rmSync(dir, { recursive: true });
    const file = await writeOutboxFile(dir, "5-second.eml", "two");
    expect(fs.readFileSync(file, "utf8")).toBe("two");
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual(["5-second.eml"]);
  });
});
