import type { Kysely } from "kysely";

/**
 * Admin grants bound to a user (decision 012): the first verified sign-in of a granted email
 * writes that user's id, so the grant cannot move to whoever holds the address later.
 * `source` says where it came from: 'grant' (npm run admin:grant) or 'config'
 * (ADMIN_EMAILS, which must still list the email). Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("admin_grants").addColumn("userId", "text").execute();
  await db.schema
    .alterTable("admin_grants")
    .addColumn("source", "text", (c) => c.notNull().defaultTo("grant"))
    .execute();
  await db.schema.createIndex("admin_grants_user").on("admin_grants").column("userId").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("admin_grants_user").execute();
  await db.schema.alterTable("admin_grants").dropColumn("source").execute();
  await db.schema.alterTable("admin_grants").dropColumn("userId").execute();
}
