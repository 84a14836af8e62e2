import { describe, expect, it } from "vitest";
import { hasNul, readForm } from "./form.server";

const post = (body: BodyInit, type?: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

async function status(p: Promise<unknown>) {
  try {
    await p;
    return "ok";
  } catch (e) {
    return (e as { init?: { status?: number } }).init?.status;
  }
}

describe("readForm", () => {
  it("reads url-encoded and multipart forms", async () => {
    expect((await readForm(post(new URLSearchParams({ a: "1" })))).get("a")).toBe("1");
    const fd = new FormData();
    fd.append("b", "2");
    expect((await readForm(post(fd))).get("b")).toBe("2");
  });

  it("answers 400 for bodies that are not forms, broken multipart and NUL characters", async () => {
    expect(await status(readForm(post('{"a":1}', "application/json")))).toBe(400);
    expect(await status(readForm(post("plain", "text/plain")))).toBe(400);
    expect(await status(readForm(post("--x\r\nbroken", "multipart/form-data; boundary=x")))).toBe(400);
    expect(await status(readForm(post(new URLSearchParams({ a: "x\0y" }))))).toBe(400);
    expect(await status(readForm(post(new URLSearchParams({ "a\0": "x" }))))).toBe(400);
  });
});

describe("hasNul", () => {
  it("finds NUL in strings, keys and nested values", () => {
    expect(hasNul("a\0")).toBe(true);
    expect(hasNul({ a: ["x", { b: "\0" }] })).toBe(true);
    expect(hasNul({ "k\0": 1 })).toBe(true);
    expect(hasNul({ a: "fine", b: 1, c: null })).toBe(false);
  });
});
