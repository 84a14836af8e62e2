/**
 * What the reference page /api/docs shows (decision 054), read from the OpenAPI document
 * itself: every operation with its parameters, body, answer and a curl example, and every
 * schema with its fields. Descriptions in the reader's language (the document's own are the
 * English of the same keys); the page adds the rest of the words.
 */
import type { Lang } from "~/i18n/config";
import { getT, type TFunction } from "~/i18n/i18n";
import type { Deps } from "../service-deps.server";
import { openApiDocument } from "./openapi.server";

type Json = Record<string, unknown>;

export interface DocField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  params: (DocField & { in: string })[];
  body: string | null;
  responses: { status: string; schema: string | null }[];
  curl: string;
}

export interface DocSchema {
  name: string;
  fields: DocField[];
}

export interface ApiDocs {
  documentUrl: string;
  operations: DocOperation[];
  schemas: DocSchema[];
}

/** Bodies of the curl examples: what a first call would send. */
const EXAMPLES: Record<string, unknown> = {
  createItem: { name: "Projector 3B", type: "other", finderFee: 200 },
  updateItem: { name: "Projector 3B (room 204)", lost: true },
  claimSticker: { code: "K7M-29Q-XHR", name: "Laptop 1042" },
  replyToConversation: { text: "Thank you! Please leave it at the reception." },
};

/** A JSON schema as a short type: `string`, `Item`, `Scan[]`, `"read" | "read-write"`, `string | null`. */
export function typeOf(schema: unknown): string {
  const s = (schema ?? {}) as Json;
  if (typeof s.$ref === "string") return s.$ref.replace(/^#\/components\/schemas\//, "");
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  for (const k of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[k])) return (s[k] as unknown[]).map(typeOf).join(" | ");
  if (Array.isArray(s.type)) return (s.type as string[]).join(" | ");
  if (s.type === "array") return `${typeOf(s.items)}[]`;
  if (s.type === "object" && s.properties) {
    const props = Object.entries(s.properties as Json).map(([k, v]) => `${k}: ${typeOf(v)}`);
    return `{ ${props.join(", ")} }`;
  }
  const format = typeof s.format === "string" ? ` (${s.format})` : "";
  return `${typeof s.type === "string" ? s.type : "any"}${format}`;
}

/** A part's description in the document (English), or "". */
const englishOf = (part: unknown): string => {
  const d = (part as Json).description;
  return typeof d === "string" ? d : "";
};

function fieldsOf(schemaName: string, schema: Json, t: TFunction): DocField[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Json | undefined) ?? {}).map(([name, v]) => {
    const english = englishOf(v);
    return {
      name,
      type: typeOf(v),
      required: required.has(name),
      // The reader's words; the document's own English should a key be missing.
      description: english && t(`api.docs.fields.${schemaName}.${name}`, { defaultValue: english }),
    };
  });
}

function curlOf(origin: string, method: string, path: string, operationId: string): string {
  const url = `${origin}/api/v1${path.replace("{id}", "ID")}`;
  const lines = [
    `curl${method === "GET" ? "" : ` -X ${method}`} '${url}'`,
    `  -H "Authorization: Bearer $HITTAD_API_KEY"`,
  ];
  const body = EXAMPLES[operationId];
  if (method === "POST") lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
  if (body !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(body)}'`);
  return lines.join(" \\\n");
}

/** The reference page's view of the document in `lang`, and the key's limit a minute it states. */
export function apiDocs(deps: Pick<Deps, "config">, lang: Lang): { docs: ApiDocs; limit: number } {
  return { docs: docsOf(deps.config.baseUrl.origin, getT(lang)), limit: deps.config.api.rateLimit };
}

function docsOf(origin: string, t: TFunction): ApiDocs {
  const doc = openApiDocument(origin) as unknown as Json;
  const operations: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const o = op as Json;
      const body = ((o.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as
        Json | undefined;
      operations.push({
        operationId: String(o.operationId),
        method: method.toUpperCase(),
        path,
        tag: ((o.tags as string[] | undefined) ?? [""])[0]!,
        params: ((o.parameters as Json[] | undefined) ?? []).map((p) => {
          const english = englishOf(p);
          return {
            name: String(p.name),
            in: String(p.in),
            type: typeOf(p.schema),
            required: p.required === true,
            description: english && t(`api.docs.params.${String(p.name)}`, { defaultValue: english }),
          };
        }),
        body: body ? typeOf(body.schema) : null,
        responses: Object.entries(o.responses as Json).map(([status, r]) => {
          const content = (r as Json).content as Json | undefined;
          const first = content ? (Object.values(content)[0] as Json) : undefined;
          return { status, schema: first ? typeOf(first.schema) : null };
        }),
        curl: curlOf(origin, method.toUpperCase(), path, String(o.operationId)),
      });
    }
  }
  const schemas = Object.entries(((doc.components as Json | undefined)?.schemas as Json | undefined) ?? {}).map(
    ([name, s]) => ({ name, fields: fieldsOf(name, s as Json, t) }),
  );
  return { documentUrl: `${origin}/api/v1/openapi.json`, operations, schemas };
}
