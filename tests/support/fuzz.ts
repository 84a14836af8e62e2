/**
 * Malformed input for the bad-input suite: a seeded PRNG (so a failure reproduces with
 * the seed the test prints) and generators for field values and whole request bodies.
 */

/** mulberry32: small, fast, good enough to pick test inputs; same seed, same sequence. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

const UNICODE = [
  "😀",
  "👩‍👩‍👧‍👦",
  "ÅÄÖåäö",
  "\u202eevil\u202c",
  "ע\u05b4בְרִית",
  "مرحبا",
  "漢字かな",
  "e\u0301\u0301\u0301",
  "\u200b\u200d\ufeff",
  "\ufffd",
  "\ud800",
  "\udfff",
  "𝕳𝖎𝖙𝖙𝖆𝖉",
  "\u0085\u2028\u2029",
];
const CONTROL = ["\0", "\u0001", "\u0007", "\b", "\u001b[31m", "\r\n", "\t", "\u007f"];
const INJECTION = [
  "' OR 1=1 --",
  '"; drop table products; --',
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "%00",
  "${7*7}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "javascript:alert(1)",
  "//evil.example/",
  "http://evil.example/",
  "\\\\evil.example",
  "%2e%2e%2f",
];
const NUMBERS = ["-1", "1e309", "NaN", "Infinity", "0x10", "999999999999999999999999", "1.5", " 12 ", "-0", "1_000"];
const VALID: Record<string, string[]> = {
  email: ["fuzz@example.test", "a@b.se", "not-an-email", "@", "a@b"],
  password: ["Secret-password-123", "x", ""],
  findFee: ["10", "0", "100000", "100001"],
  prodType: ["mobile", "laptop", "other", "tablet"],
  payment: ["month", "year", "week"],
  intent: ["payNow", "payLater", "update", "social", "handled", "reply", "preview", "import"],
  // The CSV import (decision 023): a valid file, broken quoting, a formula, another scope.
  csv: ["name,type,fee\nPhone,mobile,10\n", 'namn;typ;hittelön\n"x;mobil;1', "name,type,fee\n=1+1,other,-1\n"],
  file: ["name,type,fee\nPhone,mobile,10\n", "\uFEFFnamn;typ\n"],
  scope: ["personal", "org:nobody"],
  handled: ["0", "1", "2"],
  provider: ["google", "facebook", "twitter", "myspace"],
  save: ["on", "off"],
  rememberMe: ["on"],
  // The finder's message (decision 013): coordinates in and out of range, the script flag.
  latitude: ["59.3293", "-90", "90.5", "1e2", "abc"],
  longitude: ["18.0686", "180", "-180.1", "NaN"],
  js: ["1", "0"],
  message: ["Found your phone at the station", "x"],
  // Local paths a browser cannot put in a Location header as they are (decision 012: a 500).
  redirectTo: ["/", "/support#help", "/\u000b", "/\u007f", "/\u2028", "/😀", "/å", "/\u0085", "/a b", "//evil.test"],
};

/** One field value: usually broken, sometimes plausible so deeper code runs too. */
export function fieldValue(rng: Rng, field: string): string {
  switch (rng.int(0, 8)) {
    case 0:
      return "";
    case 1:
      return rng.pick(VALID[field] ?? ["plausible value"]);
    case 2:
      return rng.pick(["A", "ö", "😀", "<b>"]).repeat(rng.int(1_000, rng.chance(0.2) ? 300_000 : 20_000));
    case 3:
      return Array.from({ length: rng.int(1, 6) }, () => rng.pick(UNICODE)).join("");
    case 4:
      return `x${rng.pick(CONTROL)}y`;
    case 5:
      return rng.pick(NUMBERS);
    case 6:
      return rng.pick(INJECTION);
    case 7:
      return " ".repeat(rng.int(1, 50));
    default:
      return String.fromCharCode(...Array.from({ length: rng.int(1, 40) }, () => rng.int(1, 0xffff)));
  }
}

/** A value of the wrong JSON type (or an absurd one) for the API bodies. */
export function jsonValue(rng: Rng, field: string, depth = 0): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return null;
    case 1:
      return rng.int(-1e9, 1e9);
    case 2:
      return rng.chance(0.5);
    case 3:
      return depth > 3 ? [] : [fieldValue(rng, field), jsonValue(rng, field, depth + 1)];
    case 4:
      return depth > 3 ? {} : { [field]: jsonValue(rng, field, depth + 1), __proto__x: 1 };
    case 5:
      return 1e308 * 10; // serialises as null
    default:
      return fieldValue(rng, field);
  }
}

export interface Body {
  kind: string;
  headers: Record<string, string>;
  body?: BodyInit;
}

/** A request body for a form with these fields, malformed in one of many ways. */
export function formBody(rng: Rng, fields: readonly string[]): Body {
  const present = fields.filter(() => rng.chance(0.75));
  const kind = rng.pick([
    "urlencoded",
    "urlencoded",
    "urlencoded",
    "repeated-keys",
    "multipart",
    "multipart-files",
    "multipart-garbage",
    "json",
    "invalid-json",
    "text",
    "none",
    "bad-percent",
    "many-fields",
    "odd-charset",
  ] as const);
  const values = () => new URLSearchParams(present.map((f) => [f, fieldValue(rng, f)]));
  switch (kind) {
    case "urlencoded":
      return { kind, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: values() };
    case "repeated-keys": {
      const p = values();
      for (const f of present) p.append(f, fieldValue(rng, f));
      return { kind, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: p };
    }
    case "multipart":
    case "multipart-files": {
      const fd = new FormData();
      for (const f of present) {
        if (kind === "multipart-files" && rng.chance(0.6)) {
          fd.append(
            f,
            new Blob([fieldValue(rng, f)], { type: "application/octet-stream" }),
            rng.pick(["a.txt", "", "../x"]),
          );
        } else fd.append(f, fieldValue(rng, f));
      }
      return { kind, headers: {}, body: fd };
    }
    case "multipart-garbage": {
      const boundary = rng.pick(["xx", "", "----b", "\u00e5"]);
      const body = rng.pick([
        `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nhalf`,
        `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${boundary}--`,
        `garbage without boundaries ${fieldValue(rng, "x")}`,
        `--other\r\n\r\n--other--`,
      ]);
      return { kind, headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body };
    }
    case "json":
      return {
        kind,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(Object.fromEntries(present.map((f) => [f, jsonValue(rng, f)]))),
      };
    case "invalid-json":
      return {
        kind,
        headers: { "Content-Type": "application/json" },
        body: rng.pick(['{"email":', "[1,2", "nul", "{'a':1}", '{"a":"\\ud800"}', "\u0000", "{}}"]),
      };
    case "text":
      return {
        kind,
        headers: {
          "Content-Type": rng.pick(["text/plain", "application/xml", "application/octet-stream", "image/png"]),
        },
        body: fieldValue(rng, "x"),
      };
    case "none":
      return { kind, headers: {}, body: rng.chance(0.5) ? undefined : new Uint8Array([0xff, 0xfe, 0x00, 0x80]) };
    case "bad-percent":
      return {
        kind,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: present.map((f) => `${f}=${rng.pick(["%E0%A4%A", "%zz", "%", "%00", "%C0%AF", "+%2B%"])}`).join("&"),
      };
    case "many-fields": {
      const p = values();
      for (let i = 0; i < 2_000; i++) p.append(`f${i}`, "x");
      return { kind, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: p };
    }
    case "odd-charset":
      return {
        kind,
        headers: {
          "Content-Type": rng.pick(["application/x-www-form-urlencoded; charset=utf-16", "multipart/form-data"]),
        },
        body: values(),
      };
  }
}

/** A JSON API body (the contact call): wrong types, missing fields, invalid JSON, wrong content types. */
export function jsonApiBody(rng: Rng, fields: readonly string[]): Body {
  if (rng.chance(0.35)) return formBody(rng, fields);
  const present = fields.filter(() => rng.chance(0.75));
  const shape = rng.int(0, 4);
  const payload =
    shape === 0
      ? rng.pick([null, 1, "string", [], true])
      : Object.fromEntries(present.map((f) => [f, shape === 1 ? fieldValue(rng, f) : jsonValue(rng, f)]));
  return { kind: `json-api-${shape}`, headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) };
}

/** A `redirectTo` query value (encoded): a local path with a character Location cannot carry raw. */
export function redirectTarget(rng: Rng): string {
  const raw = rng.chance(0.5) ? rng.pick(VALID.redirectTo!) : `/${fieldValue(rng, "redirectTo").slice(0, 500)}`;
  try {
    return encodeURIComponent(raw);
  } catch {
    return "%2F%ED%A0%80"; // a lone surrogate: its raw UTF-8 bytes
  }
}

/** A garbage path segment for GET routes with parameters. */
export function pathSegment(rng: Rng): string {
  // At most ~6 KB encoded, so two of them stay under Node's 16 KB header limit: beyond it the
  // server rightly answers 431 and closes, which a client still uploading sees as a reset.
  const raw = fieldValue(rng, "id").slice(0, 1_000);
  try {
    return encodeURIComponent(raw) || "x";
  } catch {
    return "%ED%A0%80"; // a lone surrogate cannot be URI-encoded: send its raw UTF-8 bytes
  }
}
