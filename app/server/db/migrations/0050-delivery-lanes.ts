import type { Kysely } from "kysely";

/**
 * Fair delivery lanes (docs/decisions/049-fair-delivery-lanes.md): each outbox row names
 * what it is sent to (`target`: an address, a number, a push service's host) and, when
 * known, the account it is sent for, so that one of either holds at most its share of a
 * lane; a target that timed out waits in `outbox_backoffs` without holding a slot. Rows
 * queued before this migration have neither and are sent as before. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("target", "text").execute();
  await db.schema.alterTable("mail_outbox").addColumn("account", "text").execute();
  // Each lane claims its own channel's due rows.
  await db.schema
    .createIndex("mail_outbox_lane_idx")
    .on("mail_outbox")
    .columns(["channel", "status", "nextAttemptAt"])
    .execute();
  // A target set aside after time-outs; no personal data (a lane and a host).
  await db.schema
    .createTable("outbox_backoffs")
    .addColumn("lane", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    // Time-outs in a row; the pause doubles with each.
    .addColumn("strikes", "integer", (c) => c.notNull())
    .addColumn("resumeAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("outbox_backoffs_pk", ["lane", "target"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outbox_backoffs").execute();
  await db.schema.dropIndex("mail_outbox_lane_idx").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("account").execute();
  await db.schema.alterTable("mail_outbox").dropColumn("target").execute();
}
