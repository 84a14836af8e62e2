/**
 * Schema drift (decision 039): the tables and columns an empty database has after every
 * migration are exactly those of the Kysely `Database` interface (app/server/db/schema.ts,
 * read with the TypeScript compiler). A migration that adds a column the interface lacks,
 * or an interface column no migration makes, fails here.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { ROOT } from "./sizes";

/** Every interface declared in the schema files, by name: its property names. */
function interfacesOf(files: string[]): Map<string, { props: string[]; refs: Map<string, string> }> {
  const out = new Map<string, { props: string[]; refs: Map<string, string> }>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const stmt of source.statements) {
      if (!ts.isInterfaceDeclaration(stmt)) continue;
      const props: string[] = [];
      const refs = new Map<string, string>();
      for (const m of stmt.members) {
        if (!ts.isPropertySignature(m) || !m.name) continue;
        const name = ts.isStringLiteral(m.name) ? m.name.text : m.name.getText(source);
        props.push(name);
        if (m.type && ts.isTypeReferenceNode(m.type)) refs.set(name, m.type.typeName.getText(source));
      }
      out.set(stmt.name.text, { props, refs });
    }
  }
  return out;
}

/** table → sorted columns, as the `Database` interface declares them. */
function declaredSchema(): Record<string, string[]> {
  const dir = "app/server/db";
  const files = fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => /^schema.*\.ts$/.test(f))
    .map((f) => `${dir}/${f}`);
  const interfaces = interfacesOf(files);
  const database = interfaces.get("Database");
  if (!database) throw new Error("no Database interface in app/server/db/schema*.ts");
  const tables: Record<string, string[]> = {};
  for (const table of database.props) {
    const typeName = database.refs.get(table);
    const columns = typeName ? interfaces.get(typeName)?.props : undefined;
    if (!columns) throw new Error(`table ${table}: interface ${typeName ?? "?"} not found`);
    tables[table] = [...columns].sort();
  }
  return tables;
}

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
    const tables = await deps.db.introspection.getTables();
    const migrated: Record<string, string[]> = {};
    for (const t of tables) {
      if (!Object.hasOwn(declared, t.name) && /^kysely_/.test(t.name)) continue;
      migrated[t.name] = t.columns.map((c) => c.name).sort();
    }
    expect(migrated).toEqual(declared);
  });
});
