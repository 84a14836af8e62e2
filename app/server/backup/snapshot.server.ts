/**
 * A consistent snapshot of the running database (decision 048), read for the backup:
 * SQLite through the online backup API into a file, PostgreSQL through one exported
 * snapshot that pg_dump and the table dump both read, so the native and the portable copy
 * hold the same rows.
 */
import type { Readable } from "node:stream";
import type { Dialect } from "../db/db.server";
import type { TableInfo } from "./introspect.server";

export interface Snapshot {
  dialect: Dialect;
  /** The migrations the snapshot's database had, sorted. */
  migrations: string[];
  tables: TableInfo[];
  /** The rows of a table (its writable columns in order), in batches. */
  rows(table: TableInfo): AsyncIterable<unknown[][]>;
  /** The database's own copy: a SQLite file or pg_dump's custom format. */
  native(): { name: string; gzip: boolean; stream(): Promise<Readable> };
  close(): Promise<void>;
}

/** Rows per batch: a few milliseconds of work between two turns of the event loop. */
export const BATCH_ROWS = 500;
