/**
 * The REST API's OpenAPI document (decision 054) is valid OpenAPI 3.1
 * (@apidevtools/swagger-parser), and the client types the integration tests call the API
 * with (tests/support/api-v1.d.ts, openapi-typescript) are exactly what the current
 * document generates: a change to a schema that is not regenerated (`npm run api:types`)
 * fails here, so the tests cannot call an API the server no longer has.
 */
import fs from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { ENDPOINTS } from "../../app/server/api/endpoints.server";
import { FIELD_TEXTS, openApiDocument, PARAM_TEXTS } from "../../app/server/api/openapi.server";
import { ROOT } from "./sizes";

const TYPES = path.join(ROOT, "tests/support/api-v1.d.ts");
const HEADER =
  "/**\n * The REST API's types, generated from its OpenAPI document by openapi-typescript\n" +
  " * (tests/quality/openapi.test.ts checks they are current). Do not edit: `npm run api:types`.\n */\n";

async function generated(): Promise<string> {
  const doc = structuredClone(openApiDocument("http://localhost:3000"));
  // A field with a default may be left out of a request (the server fills it in).
  const ts = HEADER + astToString(await openapiTS(doc as never, { defaultNonNullable: false }));
  return prettier.format(ts, { ...(await prettier.resolveConfig(TYPES)), filepath: TYPES });
}

describe("the OpenAPI document of /api/v1", () => {
  it("is a valid OpenAPI 3.1 document with every endpoint of the router", async () => {
    const doc = structuredClone(openApiDocument("http://localhost:3000")) as unknown as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    await SwaggerParser.validate(structuredClone(doc) as never);
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(operations.sort()).toEqual(ENDPOINTS.map((e) => e.operationId).sort());
  });

  it("generates exactly the committed client types", async () => {
    const fresh = await generated();
    if (process.env.UPDATE_API_TYPES === "1") fs.writeFileSync(TYPES, fresh);
    expect(fs.readFileSync(TYPES, "utf8")).toBe(fresh);
  });

  it("describes only fields and parameters it has: a renamed field cannot lose its description in either language", () => {
    const doc = openApiDocument("http://localhost:3000") as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const [schema, fields] of Object.entries(FIELD_TEXTS)) {
      for (const field of Object.keys(fields)) {
        expect(doc.components.schemas[schema]?.properties, `${schema}.${field}`).toHaveProperty([field]);
      }
    }
    const params = new Set(
      Object.values(doc.paths).flatMap((item) =>
        Object.values(item).flatMap((op) => (op.parameters ?? []).map((p) => p.name)),
      ),
    );
    for (const name of Object.keys(PARAM_TEXTS)) expect(params, name).toContain(name);
  });
});
