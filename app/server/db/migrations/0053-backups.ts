import type { Kysely } from "kysely";

/**
 * Decision 048: the log of backups, scheduled and by hand, that /metrics (age and size of the
 * last good one) and staff's /admin/backups read. One row per finished attempt, written
 * after the snapshot, so a backup never holds its own row. An expand step only (a new
 * table). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("backups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("startedAt", "bigint", (c) => c.notNull())
    .addColumn("finishedAt", "bigint", (c) => c.notNull())
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("sizeBytes", "bigint")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("backups_finished_idx").on("backups").columns(["result", "finishedAt"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("backups").execute();
}
