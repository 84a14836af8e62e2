import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { LANGUAGES, type Lang } from "./config";
import { createI18n } from "./i18next.server";
import { createT, formatInteger, type TOptions, type Translation } from "./translate";

// The browser translates with createT, the server with i18next (decision 025). Hydration
// and "one source of truth" hold only if both give the same text for every key: this
// compares them on every key of every locale file, in both languages.

const dir = path.resolve(import.meta.dirname, "../locales");
const COUNTS = [0, 1, 2, 5, 1234];
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The browser's locale files and the server-only ones (mails) merged: every text of the language. */
function resourcesOf(lang: Lang): Translation {
  const read = (sub: string) =>
    Object.fromEntries(
      fs
        .readdirSync(path.join(dir, lang, sub))
        .filter((f) => f.endsWith(".json"))
        .map((f) => [f.replace(/\.json$/, ""), JSON.parse(fs.readFileSync(path.join(dir, lang, sub, f), "utf8"))]),
    ) as Record<string, Record<string, unknown>>;
  const all = read("");
  for (const [area, texts] of Object.entries(read("server"))) all[area] = { ...all[area], ...texts };
  return all;
}

function leaves(obj: unknown, prefix = ""): [string, string][] {
  if (typeof obj === "string") return [[prefix, obj]];
  if (!obj || typeof obj !== "object") return [];
  return Object.entries(obj).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

const resources = Object.fromEntries(LANGUAGES.map((l) => [l, resourcesOf(l)])) as Record<Lang, Translation>;
const texts = LANGUAGES.flatMap((l) => leaves(resources[l]));

/** Every variable a key's texts use (both languages, every plural form), and which are formatted as numbers. */
const variables = new Map<string, { names: Set<string>; numbers: Set<string> }>();
for (const [key, text] of texts) {
  const base = key.replace(PLURAL, "");
  const entry = variables.get(base) ?? { names: new Set(), numbers: new Set() };
  for (const [, inner = ""] of text.matchAll(/\{\{(.+?)\}\}/g)) {
    const [name = "", format] = inner.replace(/^\s*-/, "").split(",");
    entry.names.add(name.trim());
    if (format?.trim() === "number") entry.numbers.add(name.trim());
  }
  variables.set(base, entry);
}
const baseKeys = [...variables.keys()].sort();
const exactKeys = [...new Set(texts.map(([k]) => k))].sort();

/** Sample values: markup and non-ASCII in strings (no escaping), large numbers for `number`. */
function samples(base: string): TOptions {
  const v = variables.get(base)!;
  return Object.fromEntries(
    [...v.names].filter((n) => n !== "count").map((n) => [n, v.numbers.has(n) ? 1234567.5 : `<b>${n}</b> & å`]),
  );
}

function cases(base: string): TOptions[] {
  const values = samples(base);
  const unset = Object.fromEntries(Object.keys(values).map((n) => [n, undefined]));
  return [
    {},
    values,
    unset,
    { ...values, count: undefined },
    ...COUNTS.map((count) => ({ ...values, count })),
    // A count given as text is not a plural (i18next's rule).
    { ...values, count: "2" },
  ];
}

describe("the browser translator gives i18next's text", () => {
  for (const lang of LANGUAGES) {
    const reference = createI18n(lang, { [lang]: resources[lang] }).t;
    const browser = createT(lang, () => resources[lang]);
    let differences: string[] = [];
    let compared = 0;
    beforeEach(() => {
      differences = [];
      compared = 0;
    });
    const show = (o?: TOptions) => JSON.stringify(o, (_k, v: unknown) => (v === undefined ? "(undefined)" : v));
    const compare = (key: string, options?: TOptions) => {
      const want = reference(key, options as never) as unknown as string;
      const got = browser(key, options);
      compared++;
      if (got !== want) differences.push(`${key} ${show(options)}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
      return got;
    };

    it(`for every key of every ${lang} locale file, with every variable and counts ${COUNTS.join(", ")}`, () => {
      for (const base of baseKeys) for (const options of cases(base)) compare(base, options);
      for (const key of exactKeys) compare(key, samples(key.replace(PLURAL, "")));
      expect(differences).toEqual([]);
      // Not by accident: every key of the language was compared, with every case.
      expect(compared).toBeGreaterThanOrEqual(baseKeys.length * 10 + exactKeys.length);
      expect(baseKeys.length).toBeGreaterThan(500);
    });

    it(`the ${lang} comparison exercised lookups, plurals, interpolation and numbers`, () => {
      for (const base of baseKeys) {
        // Each key resolves to a text in some case (a plural-only key only with a count).
        const found = cases(base).some((o) => browser(base, o) !== base);
        expect(found, base).toBe(true);
      }
      const one = browser("common.counter", { count: 1 });
      const many = browser("common.counter", { count: 5 });
      expect(one).not.toBe(many);
      expect(browser("csv.preview.count", { count: 1234 })).toContain(lang === "en" ? "1,234" : "1\u00a0234");
      expect(browser("relay.mail.owner.text", samples("relay.mail.owner.text"))).not.toContain("{{");
    });

    it(`${lang}: missing keys, objects and default values fall back as i18next does`, () => {
      const missing: [string, TOptions?][] = [
        ["nope"],
        ["layout.nope"],
        ["layout.nope.deeper", { count: 2 }],
        ["layout"],
        ["common.checkoutTerms"],
        ["itemTypes.unknown", { defaultValue: "Umbrella" }],
        ["itemTypes.unknown", { defaultValue: "{{name}} x", name: "Z" }],
        ["itemTypes.unknown", { defaultValue: "" }],
        ["itemTypes.unknown", { defaultValue: null }],
        ["common.counter"],
        ["common.counter", { count: 3, defaultValue: "n" }],
      ];
      for (const [key, options] of missing) compare(key, options);
      expect(differences).toEqual([]);
    });
  }
});

describe("the browser translator on texts the locale files do not have yet", () => {
  // The same rules on made-up resources: a zero form, a text variable that looks like a
  // placeholder (not interpolated twice), the unescaped `{{- x}}` form, an empty string.
  const made = {
    t: {
      zero_zero: "none",
      zero_one: "one",
      zero_other: "{{count}} of them",
      twice: "{{a}} and {{b}}",
      raw: "{{- a}}!",
      empty: "",
      spaced: "{{ a }} / {{a , number}}",
    },
  };
  for (const lang of LANGUAGES) {
    it(`${lang}: equal to i18next`, () => {
      const reference = createI18n(lang, { [lang]: made }).t;
      const browser = createT(lang, () => made);
      const calls: [string, TOptions?][] = [
        ["t.zero", { count: 0 }],
        ["t.zero", { count: 1 }],
        ["t.zero", { count: 7 }],
        ["t.twice", { a: "{{b}}", b: "B" }],
        ["t.raw", { a: "<i>" }],
        ["t.empty"],
        ["t.empty", { defaultValue: "d" }],
        ["t.spaced", { a: 9876.5 }],
        ["t.spaced", { a: null }],
      ];
      for (const [key, options] of calls) expect(browser(key, options), key).toBe(reference(key, options as never));
    });
  }
});

describe("whole numbers are written as Intl.NumberFormat writes them, without Intl in the browser", () => {
  // Every integer up to 10,000 either way, then powers of ten and their neighbours up to 2^53.
  const samples = Array.from({ length: 20_001 }, (_, i) => i - 10_000);
  for (let p = 10; p <= Number.MAX_SAFE_INTEGER; p *= 10) samples.push(p - 1, p, p + 1, -p, -(p + 1));
  samples.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -0, 0.5, 1234567.5, 2 ** 60);
  for (const lang of LANGUAGES) {
    it(`${lang}: grouping, minus sign and the values Intl itself formats (fractions, -0, beyond 2^53)`, () => {
      const intl = new Intl.NumberFormat(lang);
      const wrong = samples.filter((n) => formatInteger(n, lang) !== intl.format(n));
      expect(wrong).toEqual([]);
    });
  }
});
