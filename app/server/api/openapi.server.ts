/**
 * The OpenAPI 3.1 document of /api/v1 (decision 054), written by zod-openapi from the
 * endpoints' table and their zod schemas: what the server validates is what the document
 * says. Served at /api/v1/openapi.json and read by the reference page /api/docs. Summaries
 * and the fields' and parameters' descriptions in English from the same translation keys
 * the reference page shows in either language (api.docs.ops, api.docs.fields, api.docs.params).
 */
import { createDocument } from "zod-openapi";
import { z } from "zod";
import { getT } from "~/i18n/i18n";
import enApi from "~/locales/en/server/api.json";
import { ENDPOINTS, type Endpoint } from "./endpoints.server";
import { ApiProblem } from "./representation.server";

const IdempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional(),
});

const problem = (
  description: string,
  headers?: Record<string, { description: string; schema: { type: "integer" | "string" } }>,
) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/problem+json": { schema: ApiProblem } },
});

const RATE_HEADERS = {
  "RateLimit-Policy": {
    description: "The key's limit: requests (q) per window of seconds (w).",
    schema: { type: "string" as const },
  },
  RateLimit: {
    description: "What is left (r) and seconds until the window resets (t).",
    schema: { type: "string" as const },
  },
};

function operation(e: Endpoint) {
  const t = getT("en");
  const query = e.query as z.ZodObject | undefined;
  return {
    operationId: e.operationId,
    summary: t(`api.docs.ops.${e.operationId}`),
    tags: [e.tag],
    requestParams: {
      ...(e.params ? { path: e.params } : {}),
      ...(query ? { query } : {}),
      ...(e.method === "POST" ? { header: IdempotencyHeader } : {}),
    },
    ...(e.body ? { requestBody: { required: true, content: { "application/json": { schema: e.body } } } } : {}),
    responses: {
      [String(e.status)]: {
        description: e.status === 201 ? "Created" : "OK",
        headers: RATE_HEADERS,
        content: { "application/json": { schema: e.response } },
      },
      "400": problem("The body or query did not pass (input.invalid, body.invalid)."),
      "401": problem("No key, or a key that is unknown or revoked (auth.missing, auth.invalid)."),
      ...(e.write ? { "403": problem("A read key writing (scope.readOnly).") } : {}),
      "404": problem("No such thing in the key's organisation (notFound)."),
      ...(e.method === "POST"
        ? {
            "409": problem("The same Idempotency-Key is still being answered (idempotency.inProgress)."),
            "422": problem("The Idempotency-Key was used with another body (idempotency.mismatch)."),
          }
        : {}),
      "429": problem("Past the key's requests a minute (rateLimited).", {
        ...RATE_HEADERS,
        "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } },
      }),
    },
  };
}

let cached: { origin: string; doc: ReturnType<typeof createDocument> } | undefined;

/** The document, its server this deployment's /api/v1. */
export function openApiDocument(origin: string): ReturnType<typeof createDocument> {
  if (cached?.origin === origin) return cached.doc;
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e);
  const doc = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Hittad API",
      version: "1.0.0",
      description:
        "An organisation's items, stickers, scans, conversations, members, orders and invoices. " +
        "Authenticate with `Authorization: Bearer hit_…` (an organisation admin makes keys on the organisation's page). " +
        "JSON in UTF-8, times in ISO 8601 (UTC), errors as application/problem+json (RFC 9457) with `code`.",
    },
    servers: [{ url: `${origin}/api/v1` }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "hit_…" } } },
    paths,
  });
  describeFromLocale(doc as unknown as OpenApiParts);
  cached = { origin, doc };
  return doc;
}

interface OpenApiParts {
  paths: Record<string, Record<string, { parameters?: { name: string; description?: string }[] }>>;
  components?: { schemas?: Record<string, { properties?: Record<string, { description?: string }> }> };
}

/** The English descriptions of the reference (api.docs.fields.<Schema>.<field>, api.docs.params.<name>). */
export const FIELD_TEXTS: Record<string, Record<string, string>> = enApi.docs.fields;
export const PARAM_TEXTS: Record<string, string> = enApi.docs.params;

/** Each described field of a schema and each described parameter, in English. */
function describeFromLocale(doc: OpenApiParts) {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    for (const [field, text] of Object.entries(FIELD_TEXTS[name] ?? {})) {
      const property = schema.properties?.[field];
      if (property) property.description = text;
    }
  }
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const param of op.parameters ?? []) {
        const text = PARAM_TEXTS[param.name];
        if (text) param.description = text;
      }
    }
  }
}
