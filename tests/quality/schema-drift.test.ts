/**
 * Schema drift (decision 039): the tables and columns an empty database has after every
 * migration are exactly those of the Kysely `Database` interface (app/server/db/schema.ts,
 * read with the TypeScript compiler). A migration that adds a column the interface lacks,
 * or an interface column no migration makes, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { declaredSchema, migratedSchema } from "./schema";

let deps: ServiceTestDeps;
beforeAll(async () => {
  deps = await createServiceDeps();
});
afterAll(async () => {
  await deps?.close();
});

describe("schema drift", () => {
  it("an empty database migrated to the latest has exactly the tables and columns of db/schema.ts", async () => {
    const declared = declaredSchema();
    expect(await migratedSchema(deps.db, declared)).toEqual(declared);
  });
});
