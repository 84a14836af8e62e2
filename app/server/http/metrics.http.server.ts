/**
 * The HTTP side of the metrics (decision 037): a label per request from React Router's
 * own route table (bounded: one value per route file, never a path with an id in it), and
 * `GET /metrics` behind a bearer token.
 */
import { timingSafeEqual } from "node:crypto";
import type express from "express";
import { matchRoutes, type RouteObject } from "react-router";
import { METRICS_CONTENT_TYPE, metricsEnabled, metricsText, observeRequest } from "../metrics/metrics.server";

interface BuildRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
}

/** The route tree of a server build's flat `routes` table, for matchRoutes. */
export function routeTree(routes: Record<string, BuildRoute | undefined>): RouteObject[] {
  const byParent = new Map<string | undefined, BuildRoute[]>();
  for (const r of Object.values(routes)) {
    if (!r) continue;
    const list = byParent.get(r.parentId) ?? [];
    list.push(r);
    byParent.set(r.parentId, list);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index
        ? { id: r.id, index: true, path: r.path, caseSensitive: r.caseSensitive }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: build(r.id) },
    );
  return build(undefined);
}

/** Paths answered outside React Router (server/app.ts), each its own label. */
const OWN_PATHS: Record<string, string> = {
  "/healthz": "healthz",
  "/readyz": "readyz",
  "/metrics": "metrics",
};

/**
 * The route label of a path: the leaf route's id (e.g. `routes/item`) for pages and
 * their `.data` requests, a fixed name for the app's own endpoints.
 */
export function routeLabel(tree: RouteObject[], pathname: string): string {
  const own = OWN_PATHS[pathname];
  if (own) return own;
  if (pathname.startsWith("/api/auth/")) return "auth";
  let path = pathname;
  if (path === "/_root.data") path = "/";
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  const matches = matchRoutes(tree, path);
  return matches?.[matches.length - 1]?.route.id ?? "unmatched";
}

/** Counts and times every answer that goes through Express (cache hits count themselves). */
export function requestMetrics(tree: () => RouteObject[] | undefined) {
  return (req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (!metricsEnabled()) return next();
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const routes = tree();
      const route = routes ? routeLabel(routes, req.path) : "unmatched";
      observeRequest(route, req.method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics`: 404 unless METRICS_TOKEN is set (metrics off); with it, 401 without
 * `Authorization: Bearer <token>`, so the route's existence is no secret but its numbers are.
 */
export function metricsEndpoint(token: () => Promise<string | undefined>) {
  return async (req: express.Request, res: express.Response) => {
    const expected = await token();
    if (!expected || !metricsEnabled()) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    const header = req.get("authorization") ?? "";
    const given = /^Bearer (.+)$/i.exec(header)?.[1]?.trim() ?? "";
    if (!sameToken(given, expected)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized");
      return;
    }
    res
      .set("Cache-Control", "no-store")
      .type(METRICS_CONTENT_TYPE)
      .send(await metricsText());
  };
}
