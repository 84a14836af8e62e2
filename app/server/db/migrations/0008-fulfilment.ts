import { randomInt } from "node:crypto";
import type { Kysely } from "kysely";

/**
 * Sticker fulfilment (decision 015). Frozen once landed.
 * - products.code: the typeable code printed under each sticker's QR code, unique;
 *   existing items get one here (the generator is copied, not imported, so this file keeps
 *   doing what it did when app/lib/domain/sticker-code.ts changes).
 * - sticker_shipments: who marked it shipped and the optional tracking number.
 * - sticker_replacements: a replacement sticker for one item (reprint or new code), a
 *   shipment of its own in the staff queue.
 * - retired_stickers: the id and code of a sticker replaced with a new code, so its URL and
 *   code answer "This sticker has been replaced" (410) instead of "not found".
 */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function code(): string {
  let out = "";
  for (let i = 0; i < 9; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("code", "text").execute();
  const rows: { id: string }[] = await db.selectFrom("products").select("id").execute();
  const used = new Set<string>();
  for (const row of rows) {
    let c = code();
    while (used.has(c)) c = code();
    used.add(c);
    await db.updateTable("products").set({ code: c }).where("id", "=", row.id).execute();
  }
  await db.schema.createIndex("products_code_idx").on("products").column("code").unique().execute();

  await db.schema.alterTable("sticker_shipments").addColumn("shippedBy", "text").execute();
  await db.schema.alterTable("sticker_shipments").addColumn("trackingNumber", "text").execute();

  await db.schema
    .createTable("sticker_replacements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("productId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // The order that paid for the item (its address is the default destination).
    .addColumn("orderId", "text", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("adress", "text", (c) => c.notNull())
    // 'reprint' | 'newCode'
    .addColumn("mode", "text", (c) => c.notNull())
    // 'pending' | 'shipped'
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("shippedAt", "bigint")
    .addColumn("shippedBy", "text")
    .addColumn("trackingNumber", "text")
    .execute();
  await db.schema.createIndex("sticker_replacements_status_idx").on("sticker_replacements").column("status").execute();
  await db.schema
    .createIndex("sticker_replacements_product_idx")
    .on("sticker_replacements")
    .column("productId")
    .execute();

  await db.schema
    .createTable("retired_stickers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("productId", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("retiredAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("retired_stickers_product_idx").on("retired_stickers").column("productId").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("retired_stickers").execute();
  await db.schema.dropTable("sticker_replacements").execute();
  await db.schema.alterTable("sticker_shipments").dropColumn("trackingNumber").execute();
  await db.schema.alterTable("sticker_shipments").dropColumn("shippedBy").execute();
  await db.schema.dropIndex("products_code_idx").execute();
  await db.schema.alterTable("products").dropColumn("code").execute();
}
