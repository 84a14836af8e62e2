import type { DB } from "../db/db.server";

/** Admin grants made with `npm run admin:grant` (ADMIN_EMAILS is the other source). */
export async function hasAdminGrant(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("admin_grants")
    .select("email")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Returns false when the email already had a grant. */
export async function grantAdmin(db: DB, email: string, now = Date.now()): Promise<boolean> {
  const res = await db
    .insertInto("admin_grants")
    .values({ email: email.trim().toLowerCase(), grantedAt: now })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("email")
    .executeTakeFirst();
  return res !== undefined;
}

/** Returns false when there was no grant. */
export async function revokeAdmin(db: DB, email: string): Promise<boolean> {
  const res = await db.deleteFrom("admin_grants").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
