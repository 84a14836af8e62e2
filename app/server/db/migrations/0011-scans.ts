import type { Kysely } from "kysely";

/**
 * Scan log, scan alerts and lost mode (docs/decisions/014-scan-log-and-alerts.md). Frozen once landed.
 *
 * - `item_scans`: one row per view of a paid item page by anyone but its owner: time,
 *   page language and a coarse device class. No IP address, no user agent.
 * - products: the owner's opt-in `scanAlerts` (0/1), `lostAt` (null = not lost),
 *   `lastScannedAt` (the dashboard card, without a query over the log), and the two
 *   throttles decided in the database by a conditional UPDATE: `scanAlertedAt` (one mail
 *   per hour, per 10 minutes while lost) and `inactiveAlertedAt` (one mail a day for scans
 *   of an item whose sticker is not active).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("item_scans")
    .addColumn("productId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("scannedAt", "bigint", (c) => c.notNull())
    // 'en' | 'sv': the language the page was shown in.
    .addColumn("lang", "text", (c) => c.notNull())
    // 'phone' | 'tablet' | 'desktop' (bots are not logged).
    .addColumn("device", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("item_scans_product_idx").on("item_scans").columns(["productId", "scannedAt"]).execute();
  await db.schema.createIndex("item_scans_time_idx").on("item_scans").column("scannedAt").execute();

  await db.schema
    .alterTable("products")
    .addColumn("scanAlerts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("products").addColumn("lostAt", "bigint").execute();
  await db.schema.alterTable("products").addColumn("lastScannedAt", "bigint").execute();
  await db.schema.alterTable("products").addColumn("scanAlertedAt", "bigint").execute();
  await db.schema.alterTable("products").addColumn("inactiveAlertedAt", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["inactiveAlertedAt", "scanAlertedAt", "lastScannedAt", "lostAt", "scanAlerts"]) {
    await db.schema.alterTable("products").dropColumn(column).execute();
  }
  await db.schema.dropTable("item_scans").execute();
}
