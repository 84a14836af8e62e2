/**
 * SQL for the privacy rights (decision 017): per kind of data, what "Download my data" reads
 * and what "Delete my account" erases or anonymises. One function per table so each kind
 * stays one entry in privacy.service.server.ts. better-auth's own tables (user, session,
 * account) are read here but changed only through better-auth's API.
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";

import { ANONYMOUS_USER_ID } from "../db/migrations/0009-account-privacy";

/** What an anonymised order or shipment points to instead of a user (a placeholder row, migration 0009). */
export const ANONYMOUS_USER = ANONYMOUS_USER_ID;
/** The address of an anonymised order or shipment: nothing of the person is left. */
export const ANONYMOUS_ADDRESS = "{}";

const ms = (d: Date | string | number | null | undefined) =>
  d == null ? null : new Date(typeof d === "number" ? d : d).toISOString();
const iso = (n: number | null | undefined) => (n == null ? null : new Date(Number(n)).toISOString());
const json = (s: string | null) => {
  if (s == null) return null;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
};

export async function readProfile(db: DB, userId: string) {
  const u = await db
    .selectFrom("user")
    .select(["id", "name", "email", "emailVerified", "image", "language", "createdAt", "updatedAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!u) return null;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: Boolean(u.emailVerified),
    image: u.image,
    language: u.language,
    createdAt: ms(u.createdAt),
    updatedAt: ms(u.updatedAt),
  };
}

/** The address kept on the profile and the one kept for the next order. */
export async function readAddresses(db: DB, userId: string) {
  const u = await db.selectFrom("user").select("adress").where("id", "=", userId).executeTakeFirst();
  const draft = await db.selectFrom("order_drafts").selectAll().where("userId", "=", userId).executeTakeFirst();
  return {
    profile: json(u?.adress ?? null),
    nextOrder: draft ? { address: json(draft.adress), buying: draft.buy, updatedAt: iso(draft.updatedAt) } : null,
  };
}

export async function deleteOrderDraft(db: DB, userId: string) {
  await db.deleteFrom("order_drafts").where("userId", "=", userId).execute();
}

/** Sign-in methods without secrets: no password hash, no tokens. */
export async function readSignInMethods(db: DB, userId: string) {
  const rows = await db
    .selectFrom("account")
    .select(["providerId", "accountId", "scope", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    provider: r.providerId,
    providerAccountId: r.providerId === "credential" ? null : r.accountId,
    scope: r.scope,
    createdAt: ms(r.createdAt),
  }));
}

/** Sessions without their tokens. */
export async function readSessions(db: DB, userId: string) {
  const rows = await db
    .selectFrom("session")
    .select(["createdAt", "updatedAt", "expiresAt", "ipAddress", "userAgent"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    createdAt: ms(r.createdAt),
    lastActiveAt: ms(r.updatedAt),
    expiresAt: ms(r.expiresAt),
    ipAddress: r.ipAddress,
    userAgent: r.userAgent,
  }));
}

/**
 * The one rule for which items' data is the account's (decision 050): its personal items.
 * An organisation's items, those the user registered included, are the organisation's
 * data: its CSV export has them, and its admins may have taken them away from the user
 * (decision 028). The items, their scans, conversations and photos all follow it.
 */
export const personalItemsOf = (db: DB, userId: string) =>
  db
    .selectFrom("products")
    .select("products.id")
    .where("products.owner", "=", userId)
    .where("products.organisationId", "is", null);

/** The ids of the account's items (personalItemsOf), oldest first: whose photos the export carries. */
export async function listPersonalItemIds(db: DB, userId: string): Promise<string[]> {
  const rows = await personalItemsOf(db, userId).orderBy("products.createdAt").orderBy("products.id").execute();
  return rows.map((r) => r.id);
}

export async function readItems(db: DB, userId: string) {
  const rows = await db
    .selectFrom("products")
    .selectAll()
    .where("id", "in", personalItemsOf(db, userId))
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    findFee: Number(r.findFee),
    currency: r.currency,
    prodType: r.prodType,
    contactInfo: r.contactInfo,
    payment: r.payment,
    paid: Number(r.payed) === 1,
    paidUntil: iso(r.paidUntil),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    stickerCode: r.code,
    active: Number(r.active) === 1,
    contactVisibility: r.contactVisibility,
    scanAlerts: Number(r.scanAlerts) === 1,
    lostSince: iso(r.lostAt),
    lastScannedAt: iso(r.lastScannedAt),
    // Private to the owner (decision 019): never on the finder page, yes in their own export.
    approxValue: r.approxValue == null ? null : Number(r.approxValue),
  }));
}

/**
 * Finder conversations about the user's personal items, with every message (decision 013,
 * the relay). An organisation's are its data, handed over when the member leaves.
 */
export async function readConversations(db: DB, userId: string) {
  const convs = await db
    .selectFrom("conversations")
    .select([
      "id",
      "itemId",
      "finderContact",
      // Decision 055: whether the finder wrote by SMS, never their number.
      sql<number>`case when "finderPhone" is null then 0 else 1 end`.as("bySms"),
      "finderLang",
      "createdAt",
      "lastMessageAt",
      "returnedAt",
      "returnedFee",
      "returnedCurrency",
    ])
    .where("itemId", "in", personalItemsOf(db, userId))
    .orderBy("createdAt")
    .execute();
  const out = [];
  for (const c of convs) {
    const messages = await db
      .selectFrom("conversation_messages")
      .select(["author", "text", "latitude", "longitude", "createdAt", "readAt"])
      .where("conversationId", "=", c.id)
      .orderBy("createdAt")
      .execute();
    out.push({
      id: c.id,
      itemId: c.itemId,
      finderContact: Number(c.bySms) === 1 ? "a finder by SMS" : c.finderContact,
      finderLanguage: c.finderLang,
      createdAt: iso(c.createdAt),
      lastMessageAt: iso(c.lastMessageAt),
      // "I have my item back" (decision 019), with the fee agreed then.
      returned:
        c.returnedAt == null
          ? null
          : { at: iso(c.returnedAt), fee: Number(c.returnedFee ?? 0), currency: c.returnedCurrency },
      messages: messages.map((m) => ({
        author: m.author,
        text: m.text,
        latitude: m.latitude == null ? null : Number(m.latitude),
        longitude: m.longitude == null ? null : Number(m.longitude),
        createdAt: iso(m.createdAt),
        readAt: iso(m.readAt),
      })),
    });
  }
  return out;
}

/** Conversations go with the user (the finder's link then answers 404). */
export async function deleteConversations(db: DB, userId: string) {
  const ids = db.selectFrom("conversations").select("id").where("itemId", "in", personalItemsOf(db, userId));
  await db.deleteFrom("conversation_messages").where("conversationId", "in", ids).execute();
  await db.deleteFrom("conversations").where("itemId", "in", personalItemsOf(db, userId)).execute();
}

/** Scans of the user's items (decision 014): time, language, device class. */
export async function readScans(db: DB, userId: string) {
  const rows = await db
    .selectFrom("item_scans")
    .select(["productId", "scannedAt", "lang", "device"])
    .where("productId", "in", personalItemsOf(db, userId))
    .orderBy("scannedAt")
    .execute();
  return rows.map((r) => ({ itemId: r.productId, at: iso(r.scannedAt), language: r.lang, device: r.device }));
}

export async function deleteScans(db: DB, userId: string) {
  await db.deleteFrom("item_scans").where("productId", "in", personalItemsOf(db, userId)).execute();
}

/** Replacement stickers the user ordered (decision 015). */
export async function readReplacements(db: DB, userId: string) {
  const rows = await db
    .selectFrom("sticker_replacements")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    itemId: r.productId,
    mode: r.mode,
    address: json(r.adress),
    status: r.status,
    createdAt: iso(r.createdAt),
    shippedAt: iso(r.shippedAt),
    trackingNumber: r.trackingNumber,
  }));
}

export async function deleteReplacements(db: DB, userId: string) {
  await db.deleteFrom("sticker_replacements").where("userId", "=", userId).execute();
}

/** Receipts (decision 016): kept for the books, moved to the anonymous user on deletion. */
export async function readReceipts(db: DB, userId: string) {
  const rows = await db.selectFrom("receipts").selectAll().where("userId", "=", userId).orderBy("number").execute();
  return rows.map((r) => ({
    number: Number(r.number),
    orderId: r.orderId,
    items: json(r.items),
    period: r.period,
    currency: r.currency,
    count: Number(r.count),
    totalAmount: Number(r.totalAmount),
    vatAmount: Number(r.vatAmount),
    periodStart: iso(r.periodStart),
    periodEnd: iso(r.periodEnd),
    paidAt: iso(r.paidAt),
  }));
}

/**
 * Receipts stay for the books (amounts, VAT, dates, number, period, how many items), without
 * the person: no user, and no item names (the owner's own words, often a name: "Anna's keys").
 */
export async function anonymiseReceipts(db: DB, userId: string) {
  await db
    .updateTable("receipts")
    .set({ userId: ANONYMOUS_USER_ID, items: "[]" })
    .where("userId", "=", userId)
    .execute();
}

/** Credit notes of the user's withdrawals (decision 051): bookkeeping, like receipts. */
export async function readCreditNotes(db: DB, userId: string) {
  const rows = await db.selectFrom("credit_notes").selectAll().where("userId", "=", userId).orderBy("number").execute();
  return rows.map((r) => ({
    number: Number(r.number),
    orderId: r.orderId,
    receiptNumber: r.receiptNumber == null ? null : Number(r.receiptNumber),
    items: json(r.items),
    currency: r.currency,
    totalAmount: Number(r.totalAmount),
    vatAmount: Number(r.vatAmount),
    createdAt: iso(r.createdAt),
  }));
}

export async function anonymiseCreditNotes(db: DB, userId: string) {
  await db
    .updateTable("credit_notes")
    .set({ userId: ANONYMOUS_USER_ID, items: "[]" })
    .where("userId", "=", userId)
    .execute();
}

/** Deletes the user's items; answers their ids (their finder pages are forgotten). */
export async function deleteItems(db: DB, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("products").select("id").where("owner", "=", userId).execute();
  await db.deleteFrom("products").where("owner", "=", userId).execute();
  return rows.map((r) => r.id);
}

export async function readOrders(db: DB, userId: string) {
  const rows = await db.selectFrom("orders").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
  const out = [];
  for (const r of rows) {
    const items = await db.selectFrom("order_items").select("productId").where("orderId", "=", r.id).execute();
    out.push({
      id: r.id,
      status: r.status,
      provider: r.provider,
      period: r.period,
      language: r.lang,
      currency: r.currency,
      count: Number(r.count),
      unitAmount: Number(r.unitAmount),
      packageAmount: Number(r.packageAmount),
      discountAmount: Number(r.discountAmount),
      totalAmount: Number(r.totalAmount),
      address: json(r.adress),
      items: items.map((i) => i.productId),
      paidAt: iso(r.paidAt),
      paidUntil: iso(r.paidUntil),
      minimumUntil: iso(r.minimumUntil),
      renewing: Number(r.renewing) === 1,
      endsAt: iso(r.endsAt),
      cancelledAt: iso(r.cancelledAt),
      createdAt: iso(r.createdAt),
    });
  }
  return out;
}

/**
 * Orders are bookkeeping records and stay (amounts, dates, provider ids), but nothing
 * points to the person any more: no user, no address (name, email and postal address).
 */
export async function anonymiseOrders(db: DB, userId: string, now: number) {
  await db
    .updateTable("orders")
    .set({ userId: ANONYMOUS_USER, adress: ANONYMOUS_ADDRESS, updatedAt: now })
    .where("userId", "=", userId)
    .execute();
}

export async function readShipments(db: DB, userId: string) {
  const rows = await db
    .selectFrom("sticker_shipments")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    address: json(r.adress),
    status: r.status,
    createdAt: iso(r.createdAt),
    shippedAt: iso(r.shippedAt),
  }));
}

/** Shipments stay as records of what was sent, without the address. */
/**
 * The user's shipments lose the person (the order stays for the books); one not posted yet
 * never will be (no one to post it to): it leaves the staff queue with a note (decision 051).
 */
export async function anonymiseShipments(db: DB, userId: string, now: number) {
  await db
    .updateTable("sticker_shipments")
    .set({ status: "dropped", droppedAt: now, note: "accountDeleted" })
    .where("userId", "=", userId)
    .where("status", "=", "pending")
    .execute();
  await db
    .updateTable("sticker_shipments")
    .set({ userId: ANONYMOUS_USER, adress: ANONYMOUS_ADDRESS })
    .where("userId", "=", userId)
    .execute();
}

/** Who a record kept by address belongs to (decision 028). */
interface Holder {
  id: string;
  email: string;
  emailVerified: boolean;
}

/**
 * The user's contact messages: those sent while signed in to this account, and those sent
 * signed out from its address once the account has verified it. A message another
 * account sent signed in is that account's, whatever address it names.
 */
const ownContactMessages = (db: DB, u: Holder) =>
  db
    .selectFrom("contact_messages")
    .where((eb) =>
      u.emailVerified
        ? eb.or([eb("userId", "=", u.id), eb.and([eb("userId", "is", null), eb("email", "=", u.email)])])
        : eb("userId", "=", u.id),
    );

/** Messages the user sent through the contact form, with staff replies. */
export async function readContactMessages(db: DB, u: Holder) {
  const rows = await ownContactMessages(db, u).selectAll().orderBy("createdAt").execute();
  const out = [];
  for (const r of rows) {
    const replies = await db
      .selectFrom("contact_replies")
      .select(["text", "createdAt"])
      .where("messageId", "=", r.id)
      .orderBy("createdAt")
      .execute();
    out.push({
      name: r.name,
      email: r.email,
      message: r.message,
      language: r.lang,
      createdAt: iso(r.createdAt),
      replies: replies.map((p) => ({ text: p.text, createdAt: iso(p.createdAt) })),
    });
  }
  return out;
}

export async function deleteContactMessages(db: DB, u: Holder) {
  const ids = (await ownContactMessages(db, u).select("id").execute()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.deleteFrom("contact_replies").where("messageId", "in", chunk).execute();
    await db.deleteFrom("contact_messages").where("id", "in", chunk).execute();
  }
}

/** Grants by user id, and by address once the address is verified (a grant by address is for its holder). */
export async function readAdminGrants(db: DB, u: Holder) {
  const rows = await db
    .selectFrom("admin_grants")
    .select(["email", "grantedAt", "source"])
    .where((eb) =>
      u.emailVerified ? eb.or([eb("userId", "=", u.id), eb("email", "=", u.email)]) : eb("userId", "=", u.id),
    )
    .execute();
  return rows.map((r) => ({ email: r.email, source: r.source, grantedAt: iso(r.grantedAt) }));
}

export async function deleteAdminGrants(db: DB, userId: string) {
  await db.deleteFrom("admin_grants").where("userId", "=", userId).execute();
}

/**
 * Mails sent to the user's address: subject and dates only (their text can hold sign-in
 * links). Only once the account has verified the address: until then they may be another
 * person's mail (decision 028).
 */
export async function readMails(db: DB, u: Holder) {
  if (!u.emailVerified) return [];
  const email = u.email;
  const rows = await db
    .selectFrom("mail_outbox")
    .select(["subject", "status", "createdAt", "sentAt"])
    .where("to", "=", email)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({
    subject: r.subject,
    status: r.status,
    createdAt: iso(r.createdAt),
    sentAt: iso(r.sentAt),
  }));
}

/** The mail log of a verified address; an unverified account's address may be someone else's. */
export async function deleteMails(db: DB, u: Holder) {
  if (!u.emailVerified) return;
  await db.deleteFrom("mail_outbox").where("to", "=", u.email).execute();
}

/** Password-reset tokens (better-auth keeps them as `reset-password:<token>` → userId). */
export async function deleteVerificationsOf(db: DB, userId: string) {
  await db.deleteFrom("verification").where("value", "=", userId).execute();
}
