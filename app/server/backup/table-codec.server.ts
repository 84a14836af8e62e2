/**
 * The portable table dump (decision 048): one gzipped NDJSON file per table, a header line
 * naming the columns and their kinds, then one JSON array per row. Kinds are the few the two
 * databases disagree on; a value is turned into what the restoring database's column takes
 * (PostgreSQL's booleans and timestamps, SQLite's 0/1 and ISO strings), so a SQLite backup
 * restores into PostgreSQL and back.
 */

export type ColumnKind = "text" | "integer" | "real" | "boolean" | "bytes" | "timestamp" | "json";

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
}

export interface TableHeader {
  table: string;
  columns: ColumnSpec[];
}

/** A column's kind from its declared type (SQLite's affinity rules, PostgreSQL's data_type). */
export function kindOfType(declared: string): ColumnKind {
  const t = declared.toLowerCase();
  if (t === "boolean" || t === "bool") return "boolean";
  if (t.includes("bytea") || t.includes("blob")) return "bytes";
  if (t.includes("timestamp") || t === "date" || t.includes("datetime")) return "timestamp";
  if (t === "json" || t === "jsonb") return "json";
  if (t.includes("int")) return "integer";
  if (t.includes("real") || t.includes("floa") || t.includes("doub") || t.includes("numeric")) return "real";
  return "text";
}

type Encoded = string | number | boolean | null | { $b: string } | { $j: unknown };

export function encodeValue(v: unknown): Encoded {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "bigint") return Number(v);
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return { $b: Buffer.from(v).toString("base64") };
  if (v instanceof Date) return v.toISOString();
  return { $j: v };
}

export function encodeRow(row: readonly unknown[]): string {
  return JSON.stringify(row.map(encodeValue));
}

/**
 * An instant as SQLite keeps better-auth's dates: an ISO string with milliseconds.
 * PostgreSQL's text form (`2026-11-28 06:00:00.123456+00`, read in UTC) is parsed first.
 */
export function isoInstant(v: string | number): string {
  if (typeof v === "number") return new Date(v).toISOString();
  const pgText = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/.exec(v);
  const text = pgText ? `${pgText[1]}T${pgText[2]}${pgText[3]}:${pgText[4] ?? "00"}` : v;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new Error(`not an instant: ${v}`);
  return at.toISOString();
}

/** A dumped value, as the restoring column (`kind`, in `dialect`) takes it. */
export function decodeValue(v: Encoded, kind: ColumnKind, dialect: "sqlite" | "postgres"): unknown {
  if (v === null) return null;
  if (typeof v === "object") {
    if ("$b" in v) return Buffer.from(v.$b, "base64");
    return JSON.stringify(v.$j);
  }
  if (typeof v === "boolean") {
    if (kind === "boolean" && dialect === "postgres") return v;
    return v ? 1 : 0;
  }
  if (kind === "boolean" && dialect === "postgres") return v === 1 || v === "1" || v === "t" || v === "true";
  if (kind === "timestamp") return dialect === "sqlite" ? isoInstant(v) : typeof v === "number" ? new Date(v) : v;
  return v;
}

export function parseRow(line: string): Encoded[] {
  const row = JSON.parse(line) as unknown;
  if (!Array.isArray(row)) throw new Error("a row is not a JSON array");
  return row as Encoded[];
}
