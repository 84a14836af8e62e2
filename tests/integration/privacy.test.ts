/**
 * The privacy notice and the seller's identity: the retention
 * periods /privacy prints are the ones the housekeeping job deletes by, the seller is named
 * on /privacy, /terms and /contact, the demo's example values say they are examples, and
 * every mail ends with a link to the notice.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PAYMENT_EVENT_RETENTION_MS,
  RATE_LIMIT_RETENTION_MS,
  runHousekeeping,
  SENT_MAIL_RETENTION_MS,
} from "../../app/server/jobs/jobs.service.server";
import { RETENTION_MS } from "../../app/lib/domain/retention";
import { enqueueMail } from "../../app/server/mail/mail.server";
import { CONVERSATION_RETENTION_MS } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { SCAN_RETENTION_MS } from "../../app/server/scans/scans.service.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { TEST_SELLER_ENV } from "../support/stripe";

const DAY = 24 * 60 * 60_000;

/** What housekeeping deletes by, per kind of its result. */
const HOUSEKEEPING_PERIODS: Record<string, number> = {
  rateLimits: RATE_LIMIT_RETENTION_MS,
  sentMail: SENT_MAIL_RETENTION_MS,
  paymentEvents: PAYMENT_EVENT_RETENTION_MS,
  scans: SCAN_RETENTION_MS,
  conversations: CONVERSATION_RETENTION_MS,
  lookups: RETENTION_MS.lookups,
  trustedContactInvites: 30 * 24 * 60 * 60_000,
  messageCounters: 31 * DAY,
  neverLinks: 365 * DAY,
  orders: RETENTION_MS.orders,
  outboxBackoffs: RETENTION_MS.outboxBackoffs,
  smsIncoming: RETENTION_MS.smsIncoming,
  apiIdempotency: RETENTION_MS.apiIdempotency,
  webhooks: RETENTION_MS.webhooks,
};

let db: TestDatabase;
let env: Record<string, string>;
let server: TestServer;
let demo: TestServer;
let rt: Runtime;
const http = httpClient(() => server.url);

beforeAll(async () => {
  db = await createTestDatabase("privacy");
  env = testEnv(db, { ...TEST_SELLER_ENV, COMPANY_VAT_NR: "SE559000123401", MAIL_POLL_MS: "100" });
  server = await startServer(env);
  demo = await startServer(testEnv(db));
  rt = await createTestRuntime({ ...env, BASE_URL: server.url });
});
afterAll(async () => {
  await server?.stop();
  await demo?.stop();
  await rt?.database.close();
  await db?.drop();
});

/** The retention rows of /privacy: kind → { days, text }. */
function retentionRows(html: string) {
  const rows = new Map<string, { days: number; text: string }>();
  for (const m of html.matchAll(
    /<tr data-retention="(\w+)" data-days="(\d+)"><td>[^<]*<\/td><td>([^<]*)<\/td><\/tr>/g,
  )) {
    rows.set(m[1]!, { days: Number(m[2]), text: m[3]! });
  }
  return rows;
}

describe("the privacy notice", () => {
  it("prints, for every kind of data housekeeping deletes, the very period it deletes by", async () => {
    const deleted = await runHousekeeping(depsOf(rt), rt.database.dialect);
    expect(deleted).not.toBeNull();
    const kinds = Object.keys(deleted!).sort();
    // A new deletion in housekeeping needs its period in app/lib/domain/retention.ts and a row here.
    expect(Object.keys(HOUSEKEEPING_PERIODS).sort()).toEqual(kinds);
    for (const lang of ["en", "sv"] as const) {
      const res = await http.get("/privacy", { lang });
      expect(res.status).toBe(200);
      const rows = retentionRows(await res.text());
      expect([...rows.keys()].sort()).toEqual(kinds);
      for (const kind of kinds) {
        expect(rows.get(kind)!.days * DAY, `${lang} ${kind}`).toBe(HOUSEKEEPING_PERIODS[kind]);
      }
    }
  });

  it("says the periods as people say them, in both languages", async () => {
    const en = retentionRows(await (await http.get("/privacy")).text());
    const sv = retentionRows(await (await http.get("/privacy", { lang: "sv" })).text());
    expect(en.get("scans")!.text).toBe("1 year");
    expect(sv.get("scans")!.text).toBe("1 år");
    expect(en.get("paymentEvents")!.text).toBe("7 years");
    expect(sv.get("paymentEvents")!.text).toBe("7 år");
    expect(en.get("orders")!.text).toBe("7 years");
    expect(sv.get("orders")!.text).toBe("7 år");
    expect(en.get("conversations")!.text).toBe("180 days");
    expect(sv.get("conversations")!.text).toBe("180 dagar");
    expect(en.get("rateLimits")!.text).toBe("1 day");
    expect(sv.get("sentMail")!.text).toBe("30 dagar");
  });

  it("names the controller, the rights, IMY and the recipients, in both languages", async () => {
    const en = await (await http.get("/privacy")).text();
    expect(en).toContain("Hittad Test AB");
    expect(en).toContain("559000-1234");
    expect(en).toContain("seller@hittad.test");
    expect(en).toContain("https://www.imy.se/");
    expect(en).toContain("46elks");
    expect(en).not.toContain('data-testid="seller-example"');
    const sv = await (await http.get("/privacy", { lang: "sv" })).text();
    expect(sv).toContain("Integritetspolicy");
    expect(sv).toContain("Integritetsskyddsmyndigheten");
  });

  it("is linked from the footer of every page and from registration", async () => {
    for (const page of ["/", "/contact", "/user/register"]) {
      expect(await (await http.get(page)).text(), page).toContain('href="/privacy"');
    }
  });
});

describe("the seller", () => {
  it("is named, with org. no., address, VAT no. and email, on /terms after the spec's terms, on /contact and /privacy", async () => {
    for (const page of ["/terms", "/contact", "/privacy"]) {
      for (const lang of ["en", "sv"] as const) {
        const html = await (await http.get(page, { lang })).text();
        for (const part of ["Hittad Test AB", "559000-1234", "Testgatan 1", "111 11 Stockholm", "SE559000123401"]) {
          expect(html, `${page} ${lang}`).toContain(part);
        }
        expect(html).toContain('href="mailto:seller@hittad.test"');
      }
    }
    const terms = await (await http.get("/terms")).text();
    // The spec's terms stay as they were; the seller follows them.
    expect(terms).toContain('<time dateTime="2022-04-15">2022-04-15</time>');
    expect(terms.indexOf("About the seller")).toBeGreaterThan(terms.indexOf("terms-contact"));
  });

  it("the demo without seller settings shows example values, marked as examples", async () => {
    for (const lang of ["en", "sv"] as const) {
      const html = await (await fetch(`${demo.url}/privacy`, { headers: { "Accept-Language": lang } })).text();
      expect(html).toContain("Hittad Exempel AB");
      expect(html).toContain('data-testid="seller-example"');
      expect(html).toContain(lang === "en" ? "Example values" : "Exempeluppgifter");
    }
  });
});

describe("every mail", () => {
  it("ends with the seller and a link to the privacy notice", async () => {
    await enqueueMail(rt.database.db, { to: "owner@example.test", subject: "Hello", text: "Body text" }, rt.clock());
    const dir = env.MAIL_OUTBOX_DIR!;
    let eml = "";
    // The worker puts each file in place whole (writeOutboxFile); wait for it.
    for (let i = 0; i < 100 && !eml; i++) {
      const files = (await fs.readdir(dir).catch(() => [])).filter((f) => f.endsWith(".eml"));
      if (files.length) eml = await fs.readFile(path.join(dir, files[0]!), "utf8");
      else await new Promise((r) => setTimeout(r, 50));
    }
    // Quoted-printable: soft line breaks out, =XX bytes decoded.
    const text = Buffer.from(
      eml.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
    expect(text).toContain("Body text");
    expect(text).toContain(`Hittad Test AB · Integritetspolicy / Privacy policy: ${server.url}/privacy`);
    expect(text).toContain(`<a href="${server.url}/privacy">`);
  });
});
