/**
 * `/api/v1/*` (decision 054): the REST API's one entry. In order: the OpenAPI document (no
 * key); the key (`Authorization: Bearer hit_…`, 401 without a live one); the key's rate
 * limit, counted before anything else is decided (decision 029), with `RateLimit-Policy`
 * and `RateLimit` on every answer and 429 + Retry-After past it; the endpoint (404/405);
 * the key's scope (403 for a read key writing); the body (JSON, bounded) and the query
 * through their zod schemas (400, never a 500); `Idempotency-Key` on POST; the service.
 * Every refusal is `application/problem+json` in the language of Accept-Language.
 */
import { languageFromAcceptLanguage, type Lang } from "~/i18n/config";
import { FORM_BODY_LIMIT } from "../http/body-limit.server";
import { rateLimits, type RateLimitResult, type RateRule } from "../rate-limit/rate-limit.server";
import type { Deps } from "../service-deps.server";
import { ApiError } from "./api-error.server";
import { authenticateApiKey } from "./api-keys.service.server";
import { PROBLEM_TYPE, problemOf } from "./api.http.server";
import type { ApiDeps } from "./api.service.server";
import { matchEndpoint, type Endpoint } from "./endpoints.server";
import { handlerOf } from "./handlers.server";
import { requestHashOf, withIdempotency, type Answer } from "./idempotency.server";
import { openApiDocument } from "./openapi.server";

const WINDOW_MS = 60_000;
const POLICY = "per-key";

/** A request's input that did not pass its schema: the fields, for the problem's `errors`. */
class InputError extends ApiError {
  constructor(readonly issues: { path: string; message: string }[]) {
    super("input.invalid", { fields: issues.map((i) => i.path).join(", ") });
  }
}

export function apiRateRule(config: Deps["config"]): RateRule {
  return { name: "api:key", limit: config.api.rateLimit, windowMs: WINDOW_MS };
}

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers): the policy, and what is left of it. */
function rateLimitHeaders(rule: RateRule, hit: RateLimitResult): Record<string, string> {
  const remaining = Math.max(0, rule.limit - hit.count);
  const reset = Math.ceil(hit.retryAfterMs / 1000);
  return {
    "RateLimit-Policy": `"${POLICY}";q=${rule.limit};w=${rule.windowMs / 1000}`,
    RateLimit: `"${POLICY}";r=${remaining};t=${reset}`,
  };
}

function json(status: number, body: unknown, headers: HeadersInit = {}, type = "application/json"): Response {
  const h = new Headers(headers);
  h.set("Content-Type", `${type}; charset=utf-8`);
  h.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
}

function parsed<T>(schema: Endpoint["query"], value: unknown, where: string): T {
  const r = schema!.safeParse(value);
  if (r.success) return r.data as T;
  throw new InputError(
    r.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join("."), message: i.message })),
  );
}

function readBody(raw: string): unknown {
  if (raw.length > FORM_BODY_LIMIT) throw new ApiError("body.invalid");
  try {
    return JSON.parse(raw === "" ? "{}" : raw) as unknown;
  } catch {
    throw new ApiError("body.invalid");
  }
}

function problemAnswer(err: unknown, lang: Lang): Answer {
  const extra = err instanceof InputError ? { errors: err.issues } : {};
  const p = problemOf(err, lang, extra);
  if (!p) throw err;
  const headers: Record<string, string> = {};
  new Headers(p.headers).forEach((value, name) => (headers[name] = value));
  return { status: p.status, body: p.body, headers };
}

export async function handleApiRequest(request: Request, deps: ApiDeps, ip: string): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const lang = languageFromAcceptLanguage(request.headers.get("accept-language"));
  const origin = deps.config.baseUrl.origin;
  const path = url.pathname.replace(/^\/api\/v1/, "") || "/";
  if (path === "/openapi.json" && (method === "GET" || method === "HEAD")) {
    return json(200, openApiDocument(origin), { "Cache-Control": "no-cache" });
  }
  let limits: Record<string, string> = {};
  try {
    const key = await authenticateApiKey(deps, request.headers.get("authorization"));
    const rule = apiRateRule(deps.config);
    const hit = await rateLimits(deps.config, deps.db).hit(rule, key.id, deps.clock());
    limits = rateLimitHeaders(rule, hit);
    if (!hit.ok) throw new ApiError("rateLimited", { count: Math.max(1, Math.ceil(hit.retryAfterMs / 1000)) });
    let match: ReturnType<typeof matchEndpoint>;
    try {
      match = matchEndpoint(method, path);
    } catch {
      match = null;
    }
    if (match === null) throw new ApiError("route.notFound");
    if (match === "method") throw new ApiError("method.notAllowed");
    const { endpoint, params } = match;
    if (endpoint.write && key.scope !== "read-write") throw new ApiError("scope.readOnly");
    const raw = method === "GET" || method === "HEAD" ? "" : await request.text();
    const caller = { key, ip, lang };
    const run = async (): Promise<Answer> => {
      try {
        if (endpoint.params) parsed(endpoint.params, params, "path");
        const query = endpoint.query ? parsed(endpoint.query, Object.fromEntries(url.searchParams), "query") : {};
        const body = endpoint.body ? parsed(endpoint.body, readBody(raw), "body") : {};
        const result = await handlerOf(endpoint.operationId)(deps, caller, { params, query, body });
        return { status: endpoint.status, body: result };
      } catch (err) {
        return problemAnswer(err, lang);
      }
    };
    const idempotencyKey = request.headers.get("idempotency-key");
    const answer =
      method === "POST" && idempotencyKey !== null
        ? await withIdempotency(
            deps,
            { keyId: key.id, idempotencyKey, requestHash: requestHashOf(method, url.pathname, raw) },
            run,
          )
        : { ...(await run()), replayed: false };
    const headers = { ...answer.headers, ...limits, ...(answer.replayed ? { "Idempotent-Replayed": "true" } : {}) };
    const isProblem = answer.status >= 400;
    return json(answer.status, answer.body, headers, isProblem ? PROBLEM_TYPE : "application/json");
  } catch (err) {
    const p = problemAnswer(err, lang);
    return json(p.status, p.body, { ...p.headers, ...limits }, PROBLEM_TYPE);
  }
}
