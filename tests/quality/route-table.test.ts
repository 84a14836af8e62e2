/**
 * Completeness of the authorization matrix: every route in app/routes.ts has a row in
 * route-table.ts (and no row names a route that is gone). Add the row, with the status
 * each role must get, when you add a route; tests/integration/security.test.ts
 * then requests it.
 */
import { describe, expect, it } from "vitest";
import { RESERVED_ROUTE_NAMES } from "../../app/lib/domain/ids";
import routes from "../../app/routes";
import { ORG_ITEM_TABLE, ORG_ROLES, ROLES, ROUTE_TABLE } from "./route-table";

interface Entry {
  path?: string;
  index?: boolean;
  children?: Entry[];
}

function paths(entries: readonly Entry[], prefix = ""): string[] {
  return entries.flatMap((e) => {
    const own = e.index ? prefix : [prefix, e.path ?? ""].filter(Boolean).join("/");
    return [...(e.path !== undefined || e.index ? [own] : []), ...paths(e.children ?? [], own)];
  });
}

describe("route table", () => {
  const declared = paths(routes as Entry[]);
  const covered = ROUTE_TABLE.flatMap((r) => (r.route === undefined ? [] : [r.route]));

  it("has a row for every route in app/routes.ts", () => {
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((p) => !covered.includes(p))).toEqual([]);
  });

  it("has no rows for routes that no longer exist, and one row per route", () => {
    expect(covered.filter((p) => !declared.includes(p))).toEqual([]);
    expect(new Set(covered).size).toBe(covered.length);
  });

  it("states an expectation for every role, for GET and POST", () => {
    for (const row of ROUTE_TABLE) {
      for (const role of ROLES) {
        expect(row.get[role], `${row.url} GET ${role}`).toBeDefined();
        expect(row.post[role], `${row.url} POST ${role}`).toBeDefined();
      }
    }
  });
});

describe("organisation-item matrix (decision 026)", () => {
  it("states an expectation for every role around an organisation, on every row", () => {
    expect(ORG_ITEM_TABLE.length).toBeGreaterThan(10);
    for (const row of ORG_ITEM_TABLE) {
      for (const role of ORG_ROLES) expect(row.cells[role], `${row.method} ${row.url} ${role}`).toBeDefined();
    }
  });
});

describe("reserved first path segments (sticker ids never spell a route)", () => {
  const declared = paths(routes as Entry[]);
  // Paths the HTTP layer answers before React Router (server/app.ts, server.js).
  const httpLayer = ["healthz", "readyz", "assets", "api"];
  const firstSegments = new Set(
    declared
      .map((p) => p.split("/")[0] ?? "")
      .filter((s) => s !== "" && !s.startsWith(":") && s !== "*")
      .map((s) => s.toLowerCase()),
  );

  it("RESERVED_ROUTE_NAMES holds every first segment of app/routes.ts and the HTTP layer's paths", () => {
    expect([...firstSegments, ...httpLayer].filter((s) => !RESERVED_ROUTE_NAMES.has(s))).toEqual([]);
  });

  it("RESERVED_ROUTE_NAMES holds nothing that is no longer a route", () => {
    expect([...RESERVED_ROUTE_NAMES].filter((s) => !firstSegments.has(s) && !httpLayer.includes(s))).toEqual([]);
  });
});
