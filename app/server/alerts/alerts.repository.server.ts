/**
 * SQL of the alert fan-out (decision 033): deliveries, the owner's alert settings and mobile
 * number, and the SMS cost guard's counters.
 */
import { sql } from "kysely";
import { readAlertSettings, type AlertSettings } from "~/lib/domain/alerts";
import type { DB } from "../db/db.server";
import { readBool } from "../db/db.server";

export interface DeliveryRow {
  id: string;
  userId: string;
  itemId: string | null;
  conversationId: string | null;
  event: string;
  channel: string;
  /** 'desk': a contact of the organisation's desk (decision 040), shown to every admin. */
  recipientKind: "owner" | "contact" | "desk";
  contactId: string | null;
  recipientLabel: string;
  status: "queued" | "sent" | "delivered" | "failed" | "blocked";
  createdAt: number;
  reportTokenHash: string | null;
}

export async function insertDelivery(db: DB, row: DeliveryRow): Promise<void> {
  await db
    .insertInto("alert_deliveries")
    .values({
      ...row,
      attempts: 0,
      lastError: null,
      sentAt: null,
      deliveredAt: null,
      providerId: null,
    })
    .execute();
}

export interface DeliveryView {
  id: string;
  event: string;
  channel: string;
  recipientKind: string;
  recipientLabel: string;
  status: string;
  attempts: number;
  createdAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
}

/** The deliveries of a conversation's alerts that the user may see (their own). */
export async function listDeliveriesOfConversation(
  db: DB,
  userId: string,
  conversationId: string,
): Promise<DeliveryView[]> {
  const rows = await db
    .selectFrom("alert_deliveries")
    .select([
      "id",
      "event",
      "channel",
      "recipientKind",
      "recipientLabel",
      "status",
      "attempts",
      "createdAt",
      "sentAt",
      "deliveredAt",
    ])
    .where("conversationId", "=", conversationId)
    // The caller checked the user may open the conversation; the desk's contacts are everyone's.
    .where((eb) => eb.or([eb("userId", "=", userId), eb("recipientKind", "=", "desk")]))
    .orderBy("createdAt")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    ...r,
    attempts: Number(r.attempts),
    createdAt: Number(r.createdAt),
    sentAt: r.sentAt === null ? null : Number(r.sentAt),
    deliveredAt: r.deliveredAt === null ? null : Number(r.deliveredAt),
  }));
}

/** Handed to the provider (mail server, 46elks, push service). A report may have come first. */
export async function markDeliverySent(
  db: DB,
  id: string,
  at: number,
  attempts: number,
  providerId: string | null,
): Promise<void> {
  await db
    .updateTable("alert_deliveries")
    .set({ sentAt: at, attempts, providerId, lastError: null })
    .where("id", "=", id)
    .execute();
  await db
    .updateTable("alert_deliveries")
    .set({ status: "sent" })
    .where("id", "=", id)
    .where("status", "in", ["queued", "failed"])
    .execute();
}

export async function markDeliveryFailed(
  db: DB,
  id: string,
  error: string,
  attempts: number,
  final: boolean,
): Promise<void> {
  await db
    .updateTable("alert_deliveries")
    .set({ lastError: error.slice(0, 500), attempts })
    .where("id", "=", id)
    .execute();
  if (final) {
    await db
      .updateTable("alert_deliveries")
      .set({ status: "failed" })
      .where("id", "=", id)
      .where("status", "in", ["queued", "sent"])
      .execute();
  }
}

/**
 * A provider's delivery report, matched by the secret in its URL (only its hash is
 * stored). `delivered`: the handset has it; `failed`: the network gave up. Returns
 * whether a delivery matched; a report for an unknown secret changes nothing.
 */
export async function recordDeliveryReport(
  db: DB,
  tokenHash: string,
  outcome: "sent" | "delivered" | "failed" | null,
  at: number,
): Promise<boolean> {
  const delivery = await db
    .selectFrom("alert_deliveries")
    .select(["id", "status"])
    .where("reportTokenHash", "=", tokenHash)
    .where("channel", "=", "sms")
    .executeTakeFirst();
  if (!delivery) return false;
  // Decision 055: 46elks reports "sent" first, then "delivered" or "failed"; a late or
  // repeated report never takes a delivery back, and an unknown one is only acknowledged.
  const from = outcome === "sent" ? ["queued"] : ["queued", "sent", "failed"];
  if (outcome) {
    await db
      .updateTable("alert_deliveries")
      .set(
        outcome === "delivered"
          ? { status: "delivered", deliveredAt: at }
          : outcome === "sent"
            ? { status: "sent", sentAt: at }
            : { status: "failed", lastError: "report: failed" },
      )
      .where("id", "=", delivery.id)
      .where("status", "in", from)
      .execute();
  }
  return true;
}

export async function readSettings(db: DB, userId: string): Promise<AlertSettings> {
  const row = await db.selectFrom("alert_settings").select("settings").where("userId", "=", userId).executeTakeFirst();
  return readAlertSettings(row?.settings);
}

export async function writeSettings(db: DB, userId: string, settings: AlertSettings, now: number): Promise<void> {
  const json = JSON.stringify(settings);
  await db
    .insertInto("alert_settings")
    .values({ userId, settings: json, updatedAt: now })
    .onConflict((oc) => oc.column("userId").doUpdateSet({ settings: json, updatedAt: now }))
    .execute();
}

export interface PhoneRow {
  phone: string | null;
  verifiedAt: number | null;
  pendingPhone: string | null;
  codeHash: string | null;
  codeExpiresAt: number | null;
  codeAttempts: number;
}

export async function readPhone(db: DB, userId: string): Promise<PhoneRow | undefined> {
  const row = await db
    .selectFrom("user_phones")
    .select(["phone", "verifiedAt", "pendingPhone", "codeHash", "codeExpiresAt", "codeAttempts"])
    .where("userId", "=", userId)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      verifiedAt: row.verifiedAt === null ? null : Number(row.verifiedAt),
      codeExpiresAt: row.codeExpiresAt === null ? null : Number(row.codeExpiresAt),
      codeAttempts: Number(row.codeAttempts),
    }
  );
}

/** The verified number of the user, or null. */
export async function verifiedPhoneOf(db: DB, userId: string): Promise<string | null> {
  const row = await readPhone(db, userId);
  return row?.phone && row.verifiedAt !== null ? row.phone : null;
}

export async function setPendingPhone(
  db: DB,
  userId: string,
  pending: { phone: string; codeHash: string; expiresAt: number },
): Promise<void> {
  const values = {
    pendingPhone: pending.phone,
    codeHash: pending.codeHash,
    codeExpiresAt: pending.expiresAt,
    codeAttempts: 0,
  };
  await db
    .insertInto("user_phones")
    .values({ userId, phone: null, verifiedAt: null, ...values })
    .onConflict((oc) => oc.column("userId").doUpdateSet(values))
    .execute();
}

/**
 * One try of the code, counted in the same statement that checks there are tries left
 * (concurrent guesses cannot all pass a read). Returns the attempts after this one, or
 * null when no code is pending, it expired or the tries were used up.
 */
export async function countCodeAttempt(db: DB, userId: string, maxAttempts: number, now: number) {
  const row = await db
    .updateTable("user_phones")
    .set({ codeAttempts: sql<number>`"codeAttempts" + 1` })
    .where("userId", "=", userId)
    .where("codeHash", "is not", null)
    .where("codeExpiresAt", ">", now)
    .where("codeAttempts", "<", maxAttempts)
    .returning(["codeAttempts", "codeHash", "pendingPhone"])
    .executeTakeFirst();
  return row ? { attempts: Number(row.codeAttempts), codeHash: row.codeHash!, pendingPhone: row.pendingPhone! } : null;
}

export async function confirmPhone(db: DB, userId: string, phone: string, now: number): Promise<void> {
  await db
    .updateTable("user_phones")
    .set({ phone, verifiedAt: now, pendingPhone: null, codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
    .where("userId", "=", userId)
    .execute();
}

export async function deletePhone(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("user_phones").where("userId", "=", userId).execute();
}

/** Claims the one notice per window that the guard stopped an SMS; false: already told. */
export async function claimQuotaNotice(db: DB, key: string, windowStart: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable("sms_quotas")
    .set({ noticeAt: now })
    .where("key", "=", key)
    .where((eb) => eb.or([eb("noticeAt", "is", null), eb("noticeAt", "<", windowStart)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Housekeeping: counters whose window ended long ago. */
export async function deleteOldSmsQuotas(db: DB, before: number): Promise<number> {
  const res = await db.deleteFrom("sms_quotas").where("windowStart", "<", before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface RecipientUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  language: "en" | "sv";
}

export async function findRecipientUser(db: DB, userId: string): Promise<RecipientUser | undefined> {
  const row = await db
    .selectFrom("user")
    .select(["id", "name", "email", "emailVerified", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      email: row.email,
      emailVerified: readBool(row.emailVerified),
      language: row.language === "sv" ? "sv" : "en",
    }
  );
}

/** The export's "alerts": the mobile number, the settings and the delivery records. */
export async function readAlertDataForExport(db: DB, userId: string) {
  const phone = await readPhone(db, userId);
  const settings = await db
    .selectFrom("alert_settings")
    .select("settings")
    .where("userId", "=", userId)
    .executeTakeFirst();
  const deliveries = await db
    .selectFrom("alert_deliveries")
    .select(["event", "channel", "recipientKind", "recipientLabel", "status", "createdAt", "sentAt", "deliveredAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return {
    mobileNumber:
      phone?.phone && phone.verifiedAt !== null ? { number: phone.phone, verifiedAt: phone.verifiedAt } : null,
    settings: settings ? readAlertSettings(settings.settings) : null,
    deliveries: deliveries.map((d) => ({
      ...d,
      createdAt: Number(d.createdAt),
      sentAt: d.sentAt === null ? null : Number(d.sentAt),
      deliveredAt: d.deliveredAt === null ? null : Number(d.deliveredAt),
    })),
  };
}

/** Erasure: the number (and the SMS queued or kept for it), the settings, the records, the counter. */
export async function eraseAlertData(db: DB, userId: string): Promise<void> {
  const phone = await readPhone(db, userId);
  const numbers = [phone?.phone, phone?.pendingPhone].filter((n): n is string => !!n);
  if (numbers.length) {
    await db.deleteFrom("mail_outbox").where("channel", "=", "sms").where("to", "in", numbers).execute();
  }
  await db.deleteFrom("user_phones").where("userId", "=", userId).execute();
  await db.deleteFrom("alert_settings").where("userId", "=", userId).execute();
  await db.deleteFrom("alert_deliveries").where("userId", "=", userId).execute();
  await db.deleteFrom("sms_quotas").where("key", "=", `account:${userId}`).execute();
}
