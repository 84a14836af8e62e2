/** SQL of trusted contacts (decision 040). */
import { sql, type Selectable } from "kysely";
import type { DB } from "../db/db.server";
import type { TrustedContactTable } from "../db/schema";

export type ContactRow = Selectable<TrustedContactTable>;

const num = (v: number | string | null) => (v === null ? null : Number(v));
const row = (r: ContactRow): ContactRow => ({
  ...r,
  confirmSentAt: num(r.confirmSentAt),
  confirmedAt: num(r.confirmedAt),
  stoppedAt: num(r.stoppedAt),
  createdAt: Number(r.createdAt),
  confirmCodeExpiresAt: num(r.confirmCodeExpiresAt),
  confirmCodeAttempts: Number(r.confirmCodeAttempts),
  emailConfirmedAt: num(r.emailConfirmedAt),
  phoneConfirmedAt: num(r.phoneConfirmedAt),
});

/**
 * Holds the row lock of whoever names the contacts (the organisation for desk contacts,
 * else the account) until the transaction ends, so that concurrent invitations count the
 * contacts one after another (decision 029: PostgreSQL's read committed let five through
 * where three are allowed; SQLite serialises transactions anyway).
 */
export async function lockContactsOf(trx: DB, userId: string, organisationId: string | null): Promise<void> {
  if (organisationId) {
    await trx
      .updateTable("organisations")
      .set({ updatedAt: sql`"updatedAt"` })
      .where("id", "=", organisationId)
      .execute();
  } else {
    await trx
      .updateTable("user")
      .set({ updatedAt: sql`"updatedAt"` })
      .where("id", "=", userId)
      .execute();
  }
}

/** An account's own contacts (not the desk contacts it named for an organisation). */
export async function listContacts(db: DB, userId: string): Promise<ContactRow[]> {
  const rows = await db
    .selectFrom("trusted_contacts")
    .selectAll()
    .where("userId", "=", userId)
    .where("organisationId", "is", null)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(row);
}

export async function findContact(db: DB, id: string): Promise<ContactRow | undefined> {
  const r = await db.selectFrom("trusted_contacts").selectAll().where("id", "=", id).executeTakeFirst();
  return r && row(r);
}

export async function findContactByConfirmHash(db: DB, hash: string): Promise<ContactRow | undefined> {
  const r = await db.selectFrom("trusted_contacts").selectAll().where("confirmTokenHash", "=", hash).executeTakeFirst();
  return r && row(r);
}

export async function insertContact(db: DB, c: ContactRow): Promise<void> {
  await db.insertInto("trusted_contacts").values(c).execute();
}

/** An account's own contact; a desk contact it named is the organisation's (removeDeskContact). */
export async function deleteContact(db: DB, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom("trusted_contacts")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .where("organisationId", "is", null)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/**
 * One channel confirmed (decision 046): the mailed link's button (email) or the code sent
 * to the number (phone). `confirmedAt` keeps the first. Once; the link keeps showing
 * "confirmed" until it expires.
 */
export async function markConfirmed(db: DB, id: string, channel: "email" | "phone", at: number): Promise<void> {
  const column = channel === "email" ? "emailConfirmedAt" : "phoneConfirmedAt";
  await db
    .updateTable("trusted_contacts")
    .set((eb) => ({
      [column]: at,
      confirmedAt: eb.fn.coalesce("confirmedAt", eb.val(at)),
      ...(channel === "phone" ? { confirmCodeHash: null, confirmCodeExpiresAt: null } : {}),
    }))
    .where("id", "=", id)
    .where(column, "is", null)
    .execute();
}

export async function markStopped(db: DB, id: string, at: number): Promise<void> {
  await db
    .updateTable("trusted_contacts")
    .set({ stoppedAt: at, confirmTokenHash: null })
    .where("id", "=", id)
    .where("stoppedAt", "is", null)
    .execute();
}

/** Confirmed, not stopped, and not excluded from this item: who gets its alerts. */
export async function listActiveContactsForItem(
  db: DB,
  owner: { userId: string } | { organisationId: string },
  itemId: string,
): Promise<ContactRow[]> {
  const rows = await db
    .selectFrom("trusted_contacts")
    .selectAll()
    .where((eb) =>
      "userId" in owner
        ? eb.and([eb("userId", "=", owner.userId), eb("organisationId", "is", null)])
        : eb("organisationId", "=", owner.organisationId),
    )
    .where("confirmedAt", "is not", null)
    .where("stoppedAt", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("trusted_contact_exclusions as x")
            .select("x.itemId")
            .whereRef("x.contactId", "=", "trusted_contacts.id")
            .where("x.itemId", "=", itemId),
        ),
      ),
    )
    .orderBy("createdAt")
    .execute();
  return rows.map(row);
}

export async function listExcludedContactIds(db: DB, itemId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("trusted_contact_exclusions")
    .select("contactId")
    .where("itemId", "=", itemId)
    .execute();
  return rows.map((r) => r.contactId);
}

/** Replaces the item's exclusions among `contactIds` (the owner's contacts) with `excluded`. */
export async function setExclusions(db: DB, itemId: string, contactIds: string[], excluded: string[]): Promise<void> {
  if (contactIds.length > 0) {
    await db
      .deleteFrom("trusted_contact_exclusions")
      .where("itemId", "=", itemId)
      .where("contactId", "in", contactIds)
      .execute();
  }
  const rows = excluded.filter((id) => contactIds.includes(id)).map((contactId) => ({ contactId, itemId }));
  if (rows.length > 0) await db.insertInto("trusted_contact_exclusions").values(rows).execute();
}

/** Unconfirmed contacts invited before `before` are forgotten (retention). */
export async function deleteUnconfirmedBefore(db: DB, before: number): Promise<number> {
  const res = await db
    .deleteFrom("trusted_contacts")
    .where("confirmedAt", "is", null)
    .where("createdAt", "<", before)
    .executeTakeFirst();
  // A contact confirmed by mail whose number never confirmed itself: the number is a
  // stranger's as far as Hittad knows, and goes after the same period (decision 058).
  const numbers = await db
    .updateTable("trusted_contacts")
    .set({ phone: null, confirmCodeHash: null, confirmCodeExpiresAt: null, confirmCodeAttempts: 0 })
    .where("phone", "is not", null)
    .where("phoneConfirmedAt", "is", null)
    .where("createdAt", "<", before)
    .where((eb) => eb.or([eb("confirmCodeExpiresAt", "is", null), eb("confirmCodeExpiresAt", "<", before)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows) + Number(numbers.numUpdatedRows);
}

/**
 * Erasing an account: its own contacts go; desk contacts it named pass to another admin
 * of their organisation (they are the desk's), or go when there is none.
 */
export async function deleteContactsOf(db: DB, userId: string): Promise<void> {
  const otherAdmin = (eb: any) =>
    eb
      .selectFrom("organisation_members as m")
      .select("m.userId")
      .whereRef("m.organisationId", "=", "trusted_contacts.organisationId")
      .where("m.role", "=", "admin")
      .where("m.userId", "!=", userId)
      .orderBy("m.userId")
      .limit(1);
  await db
    .updateTable("trusted_contacts")
    .set((eb) => ({ userId: otherAdmin(eb) }))
    .where("userId", "=", userId)
    .where("organisationId", "is not", null)
    .where((eb) => eb.exists(otherAdmin(eb)))
    .execute();
  await db.deleteFrom("trusted_contacts").where("userId", "=", userId).execute();
}

/** The desk contacts of an organisation. */
export async function listDeskContacts(db: DB, organisationId: string): Promise<ContactRow[]> {
  const rows = await db
    .selectFrom("trusted_contacts")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(row);
}

export async function deleteDeskContact(db: DB, organisationId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom("trusted_contacts")
    .where("id", "=", id)
    .where("organisationId", "=", organisationId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A new confirmation code for a contact reached by SMS (its HMAC), tries reset. */
export async function setConfirmCode(db: DB, id: string, codeHash: string, expiresAt: number): Promise<void> {
  await db
    .updateTable("trusted_contacts")
    .set({ confirmCodeHash: codeHash, confirmCodeExpiresAt: expiresAt, confirmCodeAttempts: 0 })
    .where("id", "=", id)
    .where("phoneConfirmedAt", "is", null)
    .execute();
}

/**
 * Counts one try at the contact's code in the statement that checks one is left and the
 * code is still valid (concurrent guesses cannot pass five). Null: no code to try.
 */
export async function countConfirmCodeAttempt(db: DB, id: string, maxAttempts: number, now: number) {
  const r = await db
    .updateTable("trusted_contacts")
    .set({ confirmCodeAttempts: sql<number>`"confirmCodeAttempts" + 1` })
    .where("id", "=", id)
    .where("phoneConfirmedAt", "is", null)
    .where("confirmCodeHash", "is not", null)
    .where("confirmCodeExpiresAt", ">", now)
    .where("confirmCodeAttempts", "<", maxAttempts)
    .returning(["confirmCodeAttempts", "confirmCodeHash"])
    .executeTakeFirst();
  return r ? { attempts: Number(r.confirmCodeAttempts), codeHash: r.confirmCodeHash! } : null;
}

/** Remembers a short link's code (its SHA-256) when an SMS carrying it is queued. */
export async function rememberLink(
  db: DB,
  link: {
    codeHash: string;
    kind: "stop" | "reply";
    contactId: string;
    conversationId: string | null;
    createdAt: number;
  },
): Promise<void> {
  await db
    .insertInto("trusted_contact_links")
    .values(link)
    .onConflict((oc) => oc.column("codeHash").doNothing())
    .execute();
}

/** What a short link opens, or undefined. */
export async function findLink(db: DB, codeHash: string, kind: "stop" | "reply") {
  return db
    .selectFrom("trusted_contact_links")
    .select(["contactId", "conversationId"])
    .where("codeHash", "=", codeHash)
    .where("kind", "=", kind)
    .executeTakeFirst();
}
