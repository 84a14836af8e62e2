import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../locales");

function flatten(obj: unknown, prefix = ""): string[] {
  if (typeof obj !== "object" || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

function keysOf(lang: string) {
  const files = fs.readdirSync(path.join(dir, lang)).filter((f) => f.endsWith(".json"));
  return {
    files: files.sort(),
    keys: files
      .flatMap((f) => flatten(JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8")), f.replace(/\.json$/, "")))
      .sort(),
  };
}

describe("translations", () => {
  const en = keysOf("en");
  const sv = keysOf("sv");

  it("every locale file exists in English and Swedish", () => {
    expect(sv.files).toEqual(en.files);
  });

  it("English and Swedish have exactly the same keys", () => {
    expect(
      sv.keys.filter((k) => !en.keys.includes(k)),
      "only in sv",
    ).toEqual([]);
    expect(
      en.keys.filter((k) => !sv.keys.includes(k)),
      "only in en",
    ).toEqual([]);
  });

  it("no translation is empty", () => {
    for (const lang of ["en", "sv"]) {
      for (const f of fs.readdirSync(path.join(dir, lang))) {
        const walk = (v: unknown, at: string): void => {
          if (typeof v === "string") expect(v.trim(), `${lang}/${f} ${at}`).not.toBe("");
          else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
        };
        walk(JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8")), "");
      }
    }
  });
});
