/**
 * The tables and columns the Kysely `Database` interface declares (app/server/db/schema*.ts,
 * read with the TypeScript compiler), and those a migrated database has. The schema drift
 * tests (decision 039) compare the two on SQLite (tests/quality) and PostgreSQL
 * (tests/integration/schema-drift.pg.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { SqliteAdapter, sql, type Kysely } from "kysely";
import ts from "typescript";
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
export function declaredSchema(): Record<string, string[]> {
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

/** table → sorted columns, as the migrated database has them (Kysely's own tables left out). */
export async function migratedSchema(db: Kysely<any>, declared: Record<string, string[]>) {
  const migrated: Record<string, string[]> = {};
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const t of await db.introspection.getTables()) {
    if (!Object.hasOwn(declared, t.name) && /^kysely_/.test(t.name)) continue;
    // SQLite's table_info (Kysely's introspection) leaves out generated columns; table_xinfo has them.
    const names = sqlite
      ? (await sql<{ name: string }>`select name from pragma_table_xinfo(${t.name})`.execute(db)).rows.map(
          (r) => r.name,
        )
      : t.columns.map((c) => c.name);
    migrated[t.name] = names.sort();
  }
  return migrated;
}
