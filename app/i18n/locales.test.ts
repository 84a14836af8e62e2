import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../locales");

function flatten(obj: unknown, prefix = ""): string[] {
  if (typeof obj !== "object" || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

/** A language's files: the browser's (`<area>.json`) and the server-only ones (`server/<area>.json`). */
function localeFiles(lang: string) {
  const json = (sub: string) =>
    fs
      .readdirSync(path.join(dir, lang, sub))
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(sub, f));
  return [...json(""), ...json("server")].sort();
}

function keysIn(lang: string, files: string[]) {
  return files
    .flatMap((f) => flatten(JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8")), path.basename(f, ".json")))
    .sort();
}

function keysOf(lang: string) {
  const files = localeFiles(lang);
  return { files, keys: keysIn(lang, files) };
}

/** Every text of a language (browser and server files) that matches `re`, as "file key". */
function textsMatching(lang: string, re: RegExp): string[] {
  const hits: string[] = [];
  for (const f of localeFiles(lang)) {
    const walk = (v: unknown, at: string): void => {
      if (typeof v === "string") {
        if (re.test(v)) hits.push(`${f} ${at}`);
      } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
    };
    walk(JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8")), "");
  }
  return hits;
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

  it("a server-only text (locales/<lang>/server) never has the key of a browser text", () => {
    for (const lang of ["en", "sv"]) {
      const files = localeFiles(lang);
      const browser = new Set(
        keysIn(
          lang,
          files.filter((f) => !f.startsWith("server")),
        ),
      );
      const server = keysIn(
        lang,
        files.filter((f) => f.startsWith("server")),
      );
      expect(server.length, lang).toBeGreaterThan(0);
      // Neither the same key nor one inside the other (`relay.mail` vs `relay.mail.owner`).
      const clashes = server.filter((k) =>
        [...browser].some((b) => b === k || b.startsWith(`${k}.`) || k.startsWith(`${b}.`)),
      );
      expect(clashes, lang).toEqual([]);
    }
  });

  it("no translation is empty", () => {
    for (const lang of ["en", "sv"]) {
      for (const f of localeFiles(lang)) {
        const walk = (v: unknown, at: string): void => {
          if (typeof v === "string") expect(v.trim(), `${lang}/${f} ${at}`).not.toBe("");
          else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
        };
        walk(JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8")), "");
      }
    }
  });

  // One word per thing (decision 038): the texts a reader meets in one walk agree.
  it("Swedish says hittegodsdisk for an organisation's lost-and-found desk, never hittegodsmottagning", () => {
    expect(textsMatching("sv", /hittegodsmottagning/i)).toEqual([]);
    expect(textsMatching("sv", /hittegodsdisk/i).length).toBeGreaterThan(5);
  });
});
