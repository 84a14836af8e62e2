import type { Lang } from "~/i18n/config";
import { SOCIAL_PROVIDERS, type SocialProvider } from "~/lib/domain/social";
import { readBool, type DB } from "../db/db.server";

export async function setUserLanguage(db: DB, userId: string, lang: Lang): Promise<void> {
  await db.updateTable("user").set({ language: lang }).where("id", "=", userId).execute();
}

export async function hasPassword(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("account")
    .select("id")
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The spec's per-provider fields of a User (googleId, googleEmail, facebookId, …),
 * derived from better-auth's account table instead of stored twice: the id is the
 * provider's subject (account.accountId); the email is the user's, because accounts
 * only ever link on the same email (accountLinking.allowDifferentEmails is off).
 */
export async function providerIdentities(
  db: DB,
  userId: string,
): Promise<Partial<Record<`${SocialProvider}Id` | `${SocialProvider}Email`, string>>> {
  const rows = await db
    .selectFrom("account")
    .innerJoin("user", "user.id", "account.userId")
    .select(["account.providerId", "account.accountId", "user.email"])
    .where("account.userId", "=", userId)
    .execute();
  const out: Partial<Record<`${SocialProvider}Id` | `${SocialProvider}Email`, string>> = {};
  for (const r of rows) {
    const p = SOCIAL_PROVIDERS.find((s) => s === r.providerId);
    if (!p) continue;
    out[`${p}Id`] = r.accountId;
    out[`${p}Email`] = r.email;
  }
  return out;
}

/** Every password-reset token of a user (better-auth keeps them as `reset-password:<token>` → userId). */
export async function deleteResetTokensOf(db: DB, userId: string): Promise<number> {
  const res = await db
    .deleteFrom("verification")
    .where("identifier", "like", "reset-password:%")
    .where("value", "=", userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The email stored for a user (better-auth's user table), or undefined. */
export async function findUserEmail(db: DB, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst();
  return row?.email;
}

/** Whether the user's stored email is verified (better-auth writes 0/1 or a boolean). */
export async function isEmailVerified(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("emailVerified").where("id", "=", userId).executeTakeFirst();
  return row !== undefined && readBool(row.emailVerified);
}
