/**
 * One direction between features (decision 053): the folders of app/server (and the
 * modules directly in it) import each other only as this table allows, type imports,
 * re-exports and dynamic imports included, and no two of them import each other. A new
 * edge is a decision: add it here, check it makes no pair, and run `npm run architecture`
 * so docs/architecture.md shows it. A feature that must tell a higher one what happened
 * announces it on the event bus (app/server/domain-events.ts) instead of importing it.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  committedGraphSection,
  DOC,
  featureEdges,
  graphSection,
  nodeOf,
  twoWayPairs,
  withGraphSection,
  type FeatureEdges,
} from "../../scripts/lib/feature-graph";
import { ROOT } from "./import-graph";

/** Folder or top-level module → what it may import. Sorted; each edge one way only. */
const ALLOWED: Record<string, string[]> = {
  access: ["db", "service-error"],
  account: [
    "alerts",
    "auth",
    "config",
    "trusted-contacts",
    "db",
    "deps",
    "http",
    "lookup",
    "mail",
    "orders",
    "organisations",
    "photos",
    "push",
    "rate-limit",
    "recipients",
    "service-deps",
    "service-error",
  ],
  admin: ["clock", "db"],
  api: [
    "access",
    "config",
    "db",
    "http",
    "items",
    "mail",
    "orders",
    "organisations",
    "rate-limit",
    "relay",
    "scans",
    "service-deps",
    "service-error",
    "stickers",
  ],
  alerts: [
    "access",
    "config",
    "trusted-contacts",
    "db",
    "deps",
    "domain-events",
    "http",
    "mail",
    "organisations",
    "push",
    "rate-limit",
    "recipients",
    "scans",
    "service-deps",
    "service-error",
    "sms",
  ],
  auth: [
    "admin",
    "captcha",
    "clock",
    "config",
    "db",
    "deps",
    "http",
    "logger",
    "mail",
    "rate-limit",
    "recipients",
    "service-deps",
    "service-error",
  ],
  backup: ["config", "db", "jobs", "logger", "metrics", "photos", "service-deps"],
  captcha: ["clock", "config", "db", "logger", "service-deps"],
  channels: ["db"],
  config: [],
  support: ["captcha", "db", "http", "mail", "rate-limit", "service-deps", "service-error"],
  "trusted-contacts": [
    "access",
    "config",
    "db",
    "http",
    "mail",
    "organisations",
    "rate-limit",
    "recipients",
    "relay",
    "service-deps",
    "service-error",
  ],
  context: ["photos"],
  db: ["config", "logger"],
  deps: ["http", "public-settings", "runtime", "service-deps"],
  "domain-events": [],
  "event-bus": ["domain-events", "service-deps"],
  "finder-page.http": ["items", "logger", "relay", "runtime", "scans"],
  flash: [],
  fulfil: [
    "access",
    "auth",
    "config",
    "db",
    "deps",
    "http",
    "logger",
    "mail",
    "rate-limit",
    "service-deps",
    "service-error",
  ],
  http: ["config", "flash", "logger", "metrics", "service-error"],
  "item-page-cache.http": ["clock", "finder-page.http", "http", "items", "logger", "metrics", "runtime", "scans"],
  items: [
    "access",
    "auth",
    "clock",
    "db",
    "deps",
    "domain-events",
    "fulfil",
    "http",
    "logger",
    "order-draft",
    "orders",
    "organisations",
    "photos",
    "rate-limit",
    "scans",
    "service-deps",
    "service-error",
    "stickers",
  ],
  jobs: [
    "alerts",
    "api",
    "trusted-contacts",
    "db",
    "logger",
    "lookup",
    "metrics",
    "orders",
    "outbox",
    "photos",
    "rate-limit",
    "recipients",
    "relay",
    "scans",
    "service-deps",
    "sms-finder",
    "webhooks",
  ],
  logger: ["config", "secret-urls"],
  lookup: ["db", "http", "service-deps", "service-error"],
  mail: ["channels", "clock", "config", "db", "logger", "outbox", "push", "service-deps"],
  metrics: ["clock"],
  "order-draft": ["auth", "db", "http", "organisations", "service-deps"],
  orders: [
    "access",
    "config",
    "db",
    "domain-events",
    "flash",
    "http",
    "logger",
    "mail",
    "order-draft",
    "organisations",
    "public-settings",
    "rate-limit",
    "seller",
    "service-deps",
    "service-error",
    "stickers",
  ],
  organisations: ["config", "db", "deps", "http", "mail", "rate-limit", "recipients", "service-deps", "service-error"],
  outbox: ["alerts", "channels", "clock", "db", "logger", "push"],
  photos: ["access", "clock", "config", "db", "deps", "http", "logger", "rate-limit", "service-deps", "service-error"],
  "public-settings": ["config", "seller"],
  push: ["channels", "clock", "db", "http", "logger", "rate-limit", "service-deps", "service-error"],
  "rate-limit": ["clock", "config", "db"],
  recipients: ["channels", "config", "db", "domain-events", "http", "service-deps", "service-error", "sms"],
  relay: [
    "access",
    "alerts",
    "captcha",
    "config",
    "db",
    "deps",
    "http",
    "items",
    "mail",
    "rate-limit",
    "recipients",
    "scans",
    "service-deps",
    "service-error",
  ],
  "root.http": ["auth", "deps", "http", "orders", "organisations", "relay"],
  runtime: [
    "account",
    "alerts",
    "auth",
    "captcha",
    "config",
    "db",
    "event-bus",
    "http",
    "items",
    "logger",
    "mail",
    "orders",
    "photos",
    "public-settings",
    "push",
    "recipients",
    "service-deps",
    "sms",
    "sms-finder",
    "webhooks",
  ],
  scans: ["access", "config", "db", "http", "logger", "mail", "service-deps", "service-error"],
  "secret-urls": [],
  "security-headers": ["auth", "config", "http", "orders"],
  seller: ["config"],
  "service-deps": ["access", "channels", "clock", "config", "db", "domain-events"],
  "service-error": [],
  sms: ["channels", "clock", "config", "db", "logger"],
  stickers: ["access", "db", "fulfil", "http", "organisations", "rate-limit", "service-deps", "service-error"],
  "sms-finder": [
    "access",
    "alerts",
    "config",
    "db",
    "domain-events",
    "lookup",
    "mail",
    "rate-limit",
    "recipients",
    "relay",
    "service-deps",
    "sms",
  ],
  webhooks: [
    "api",
    "channels",
    "db",
    "deps",
    "domain-events",
    "http",
    "logger",
    "mail",
    "outbox",
    "service-deps",
    "service-error",
  ],
};

describe("the feature graph of app/server", () => {
  const edges = featureEdges();

  it("reads folders and top-level modules, type imports included", () => {
    expect(nodeOf(`${ROOT}/app/server/items/items.service.server.ts`)).toBe("items");
    expect(nodeOf(`${ROOT}/app/server/runtime.server.ts`)).toBe("runtime");
    expect(nodeOf(`${ROOT}/app/lib/domain/paid.ts`)).toBeUndefined();
    // service-deps.server.ts imports only types; they are edges all the same.
    expect(edges.get("service-deps")).toContain("db");
    expect(edges.size).toBeGreaterThan(30);
  });

  it("has only the edges the table allows", () => {
    const unexpected = [...edges].flatMap(([from, tos]) =>
      tos.filter((to) => !(ALLOWED[from] ?? []).includes(to)).map((to) => `${from} -> ${to}`),
    );
    expect(unexpected).toEqual([]);
  });

  it("has no two folders that import each other", () => {
    expect(twoWayPairs(edges)).toEqual([]);
  });

  it("allows no two-way pair in the table either", () => {
    expect(twoWayPairs(new Map(Object.entries(ALLOWED)))).toEqual([]);
  });

  it("would notice a pair", () => {
    const g: FeatureEdges = new Map([
      ["alerts", ["scans"]],
      ["scans", ["alerts", "db"]],
      ["db", []],
    ]);
    expect(twoWayPairs(g)).toEqual([["alerts", "scans"]]);
  });

  it("is the graph docs/architecture.md shows (npm run architecture writes it)", () => {
    const section = graphSection(edges);
    expect(committedGraphSection()).toBe(section);
    const doc = fs.readFileSync(DOC, "utf8");
    expect(withGraphSection(doc, section)).toBe(doc);
  });
});
