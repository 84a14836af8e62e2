/**
 * The schema as the database has it (decision 048): tables, columns and foreign keys read
 * from the catalogue, never from a list in code, so a table another release adds is backed
 * up and restored without a change here. Kysely's own migration tables are left out: a
 * restore's migrator writes them.
 */
import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db/db.server";
import { kindOfType, type ColumnSpec } from "./table-codec.server";

const OWN_TABLES = /^(kysely_|sqlite_)/;

export interface TableInfo {
  name: string;
  /** Writable columns in order (generated ones left out: the database computes them). */
  columns: ColumnSpec[];
  /** Tables this one's foreign keys point to (itself excluded). */
  parents: string[];
}

export async function readTables(db: Kysely<any>, dialect: Dialect): Promise<TableInfo[]> {
  return dialect === "sqlite" ? sqliteTables(db) : postgresTables(db);
}

async function sqliteTables(db: Kysely<any>): Promise<TableInfo[]> {
  const names = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' order by name`.execute(db);
  const out: TableInfo[] = [];
  for (const { name } of names.rows) {
    if (OWN_TABLES.test(name)) continue;
    // hidden 2 and 3: generated columns (virtual, stored).
    const cols = await sql<{ name: string; type: string; hidden: number }>`
      select name, type, hidden from pragma_table_xinfo(${name}) order by cid`.execute(db);
    const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
    out.push({
      name,
      columns: cols.rows.filter((c) => c.hidden === 0).map((c) => ({ name: c.name, kind: kindOfType(c.type) })),
      parents: [...new Set(fks.rows.map((f) => f.table).filter((t) => t !== name))],
    });
  }
  return out;
}

async function postgresTables(db: Kysely<any>): Promise<TableInfo[]> {
  const cols = await sql<{ table_name: string; column_name: string; data_type: string; is_generated: string }>`
    select c.table_name, c.column_name, c.data_type, c.is_generated
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  const fks = await sql<{ child: string; parent: string }>`
    select distinct ch.relname as child, pa.relname as parent
    from pg_constraint k
    join pg_class ch on ch.oid = k.conrelid
    join pg_class pa on pa.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const c of cols.rows) {
    if (OWN_TABLES.test(c.table_name)) continue;
    let t = tables.get(c.table_name);
    if (!t) tables.set(c.table_name, (t = { name: c.table_name, columns: [], parents: [] }));
    if (c.is_generated === "NEVER") t.columns.push({ name: c.column_name, kind: kindOfType(c.data_type) });
  }
  for (const f of fks.rows) {
    const t = tables.get(f.child);
    if (t && f.parent !== f.child && !t.parents.includes(f.parent)) t.parents.push(f.parent);
  }
  return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Parents before children, so rows load with every foreign key checked as they go. */
export function loadOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, path: string[]) => {
    if (done.has(t.name)) return;
    if (visiting.has(t.name)) throw new Error(`foreign keys form a cycle: ${[...path, t.name].join(" → ")}`);
    visiting.add(t.name);
    for (const p of t.parents) {
      const parent = byName.get(p);
      if (parent) visit(parent, [...path, t.name]);
    }
    visiting.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, []);
  return out;
}

export async function countRows(db: Kysely<any>, table: string): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Empties a PostgreSQL database: every table, view and sequence of the schema, and every
 * function and type (a migration that made them runs again). For a restore's target only;
 * a SQLite target is a file, removed instead.
 */
export async function dropEverything(db: Kysely<any>): Promise<void> {
  const rels = await sql<{ name: string; kind: string }>`
    select relname as name, relkind as kind from pg_class
    where relnamespace = current_schema()::regnamespace and relkind in ('r', 'v', 'm', 'S', 'p')`.execute(db);
  const dropOf: Record<string, string> = { r: "table", p: "table", v: "view", m: "materialized view", S: "sequence" };
  for (const r of rels.rows) {
    await sql`drop ${sql.raw(dropOf[r.kind]!)} if exists ${sql.table(r.name)} cascade`.execute(db);
  }
  const fns = await sql<{ signature: string }>`
    select p.oid::regprocedure::text as signature from pg_proc p
    where p.pronamespace = current_schema()::regnamespace`.execute(db);
  for (const f of fns.rows) await sql`drop function if exists ${sql.raw(f.signature)} cascade`.execute(db);
  const types = await sql<{ name: string }>`
    select t.typname as name from pg_type t
    where t.typnamespace = current_schema()::regnamespace and t.typtype in ('e', 'd', 'c')
      and not exists (select 1 from pg_class c where c.reltype = t.oid)`.execute(db);
  for (const t of types.rows) await sql`drop type if exists ${sql.id(t.name)} cascade`.execute(db);
}

/** PostgreSQL: sequences behind serial or identity columns continue after the loaded rows. */
export async function resetSequences(db: Kysely<any>): Promise<void> {
  const owned = await sql<{ seq: string; tbl: string; col: string }>`
    select s.oid::text as seq, t.relname as tbl, a.attname as col
    from pg_depend d
    join pg_class s on s.oid = d.objid and s.relkind = 'S'
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relnamespace = current_schema()::regnamespace`.execute(db);
  for (const o of owned.rows) {
    const max = sql`(select max(${sql.id(o.col)}) from ${sql.table(o.tbl)})`;
    await sql`select setval(${o.seq}::oid::regclass, coalesce(${max}, 0) + 1, false)`.execute(db);
  }
}
