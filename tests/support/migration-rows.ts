/**
 * Rows for tests of a migration on a database that already holds data: the columns a table
 * requires at some schema version, and a row with a placeholder in each of them.
 */
import { sql, type Kysely } from "kysely";

/** The columns a row of `table` must be given (not null, no default, not generated). */
export async function requiredColumns(k: Kysely<any>, dialect: string, table: string) {
  if (dialect === "postgres") {
    const r = await sql<{ name: string; type: string }>`
      select column_name as name, data_type as type from information_schema.columns
      where table_name = ${table} and is_nullable = 'NO' and column_default is null
        and is_generated = 'NEVER'`.execute(k);
    return r.rows;
  }
  const r = await sql<{ name: string; type: string; notnull: number; dflt_value: unknown }>`
    select name, type, "notnull", dflt_value from pragma_table_info(${table})`.execute(k);
  return r.rows.filter((c) => c.notnull === 1 && c.dflt_value === null);
}

/** A row of `table` with `given` and a placeholder in every other required column. */
export async function rowOf(k: Kysely<any>, dialect: string, table: string, given: Record<string, unknown>) {
  const row: Record<string, unknown> = {};
  for (const c of await requiredColumns(k, dialect, table)) {
    const type = c.type.toLowerCase();
    row[c.name] = type.includes("bool") ? false : /int|numeric|real|double/.test(type) ? 0 : "x";
  }
  return { ...row, ...given };
}
