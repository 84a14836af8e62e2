import { toAdminGrantSource, type AdminGrantSource } from "~/lib/domain/admin-grant";
import type { DB } from "../db/db.server";
import { systemClock } from "../clock.server";

export interface AdminGrant {
  /** Lower case: the email the grant was made for. */
  email: string;
  /** The user it is bound to, once that user signed in with the email verified. */
  userId: string | null;
  source: AdminGrantSource;
}

/** The grants bound to this user or made for this email (at most a few rows). */
export async function adminGrantsFor(db: DB, userId: string, email: string): Promise<AdminGrant[]> {
  const rows = await db
    .selectFrom("admin_grants")
    .select(["email", "userId", "source"])
    .where((eb) => eb.or([eb("userId", "=", userId), eb("email", "=", email.trim().toLowerCase())]))
    .execute();
  return rows.map((r) => ({ email: r.email, userId: r.userId, source: toAdminGrantSource(r.source) }));
}

/** Bind an unbound grant to a user. False when it was bound meanwhile (or is gone). */
export async function bindAdminGrant(db: DB, email: string, userId: string): Promise<boolean> {
  const res = await db
    .updateTable("admin_grants")
    .set({ userId })
    .where("email", "=", email.trim().toLowerCase())
    .where("userId", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A grant born bound (ADMIN_EMAILS at first verified sign-in). False when the email had one. */
export async function insertBoundAdminGrant(
  db: DB,
  grant: { email: string; userId: string; source: AdminGrantSource },
  now: number,
): Promise<boolean> {
  const res = await db
    .insertInto("admin_grants")
    .values({ email: grant.email.trim().toLowerCase(), userId: grant.userId, source: grant.source, grantedAt: now })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("email")
    .executeTakeFirst();
  return res !== undefined;
}

/** Returns false when the email already had a grant. */
export async function grantAdmin(db: DB, email: string, now = systemClock()): Promise<boolean> {
  const res = await db
    .insertInto("admin_grants")
    .values({ email: email.trim().toLowerCase(), grantedAt: now, source: "grant" })
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
