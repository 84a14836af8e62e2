/**
 * SQL of the finder-to-owner relay (decision 013): conversations and their messages. One
 * query per function, the same on SQLite and PostgreSQL; rows are converted here
 * (decision 004): bigint → number, author text → the literal union.
 */
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from "kysely";
import { toCurrency, type Currency } from "~/lib/domain/currency";
import { readBool, type DB } from "../db/db.server";
import type { ConversationMessageTable, ConversationTable, Database } from "../db/schema";
import { canManage } from "../access/item-access.repository.server";
import { toOrgRole } from "~/lib/domain/organisation-roles";
import { may } from "~/lib/domain/permissions";

export type Author = "finder" | "owner";

export interface Conversation {
  id: string;
  itemId: string;
  ownerId: string;
  finderToken: string;
  finderContact: string;
  finderLang: "en" | "sv";
  createdAt: number;
  lastMessageAt: number;
  /** The owner confirmed "I have my item back" (decision 019), with the fee agreed then. */
  returned: ReturnedState | null;
  /** The finder's address opened the first mail's link (decision 058): replies are mailed to it. */
  finderConfirmedAt: number | null;
  /** The number a finder texted from (decision 055): for sending them SMS only, never shown. */
  finderPhone?: string | null;
  /** The short reference an owner answers by SMS with (decision 055). */
  smsRef?: string | null;
}

export interface ReturnedState {
  at: number;
  fee: number;
  currency: Currency;
}

export interface RelayMessage {
  id: string;
  conversationId: string;
  author: Author;
  text: string;
  latitude: number | null;
  longitude: number | null;
  createdAt: number;
  readAt: number | null;
  /** A trusted contact's reply (decision 040): who, for the owner's eyes only. */
  contactId?: string | null;
}

function toConversation(row: Selectable<ConversationTable>): Conversation {
  return {
    id: row.id,
    itemId: row.itemId,
    ownerId: row.ownerId,
    finderToken: row.finderToken,
    finderContact: row.finderContact,
    finderLang: row.finderLang === "sv" ? "sv" : "en",
    createdAt: Number(row.createdAt),
    lastMessageAt: Number(row.lastMessageAt),
    returned:
      row.returnedAt == null
        ? null
        : {
            at: Number(row.returnedAt),
            fee: Number(row.returnedFee ?? 0),
            currency: toCurrency(row.returnedCurrency ?? ""),
          },
    finderConfirmedAt: row.finderConfirmedAt == null ? null : Number(row.finderConfirmedAt),
    finderPhone: row.finderPhone ?? null,
    smsRef: row.smsRef ?? null,
  };
}

function toMessage(row: Selectable<ConversationMessageTable>): RelayMessage {
  return {
    id: row.id,
    conversationId: row.conversationId,
    author: row.author === "owner" ? "owner" : "finder",
    text: row.text,
    latitude: row.latitude == null ? null : Number(row.latitude),
    longitude: row.longitude == null ? null : Number(row.longitude),
    createdAt: Number(row.createdAt),
    readAt: row.readAt == null ? null : Number(row.readAt),
    contactId: row.contactId ?? null,
  };
}

export async function insertConversation(db: DB, c: Conversation): Promise<void> {
  const { returned: _returned, ...row } = c;
  await db.insertInto("conversations").values(row).execute();
}

/**
 * Records "I have my item back" once (decision 019): only a conversation not yet marked
 * changes, so of two clicks (or two instances) exactly one gets true and sends the mail.
 */
export async function markReturned(db: DB, id: string, r: ReturnedState): Promise<boolean> {
  const res = await db
    .updateTable("conversations")
    .set({ returnedAt: r.at, returnedFee: r.fee, returnedCurrency: r.currency })
    .where("id", "=", id)
    .where("returnedAt", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The finder's address confirmed itself (decision 058); the first time counts. */
export async function markFinderConfirmed(db: DB, id: string, at: number): Promise<void> {
  await db
    .updateTable("conversations")
    .set({ finderConfirmedAt: at })
    .where("id", "=", id)
    .where("finderConfirmedAt", "is", null)
    .execute();
}

export async function insertRelayMessage(db: DB, m: RelayMessage): Promise<void> {
  await db.insertInto("conversation_messages").values(m).execute();
}

export async function touchConversation(db: DB, id: string, at: number): Promise<void> {
  await db.updateTable("conversations").set({ lastMessageAt: at }).where("id", "=", id).execute();
}

/** A conversation by its id, for the SMS relay (decision 055), which finds it by the finder's number. */
export async function findConversationById(db: DB, id: string): Promise<Conversation | undefined> {
  const row = await db.selectFrom("conversations").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toConversation(row);
}

export async function findConversationByToken(db: DB, token: string): Promise<Conversation | undefined> {
  const row = await db.selectFrom("conversations").selectAll().where("finderToken", "=", token).executeTakeFirst();
  return row && toConversation(row);
}

/**
 * A conversation about an item the user may manage (decision 026: the owner of a personal
 * item; an organisation's admins and the assigned member); anyone else's id finds nothing.
 */
export async function findConversationOfOwner(db: DB, userId: string, id: string): Promise<Conversation | undefined> {
  const row = await db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .selectAll("c")
    .where("c.id", "=", id)
    .where(canManage(userId, "p"))
    .executeTakeFirst();
  return row && toConversation(row);
}

/** A conversation about one of the organisation's desk items (assigned to nobody). */
export async function findDeskConversation(
  db: DB,
  organisationId: string,
  id: string,
): Promise<Conversation | undefined> {
  const row = await db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .selectAll("c")
    .where("c.id", "=", id)
    .where("p.organisationId", "=", organisationId)
    .where("p.assignedTo", "is", null)
    .executeTakeFirst();
  return row && toConversation(row);
}

export async function listMessagesOf(db: DB, conversationId: string): Promise<RelayMessage[]> {
  const rows = await db
    .selectFrom("conversation_messages")
    .selectAll()
    .where("conversationId", "=", conversationId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(toMessage);
}

/** Marks the messages written by `author` as read by the other side. */
export async function markRead(db: DB, conversationId: string, author: Author, at: number): Promise<void> {
  await db
    .updateTable("conversation_messages")
    .set({ readAt: at })
    .where("conversationId", "=", conversationId)
    .where("author", "=", author)
    .where("readAt", "is", null)
    .execute();
}

export interface ConversationSummary {
  id: string;
  itemId: string;
  itemName: string;
  lastMessageAt: number;
  unread: number;
  messages: number;
  lastText: string;
  /** The finder wrote by SMS (decision 055); their number stays on the server. */
  bySms: boolean;
}

/** Conversations about the items the user manages, newest first, with the finder's unread messages counted. */
export async function listConversationsOfOwner(db: DB, ownerId: string, limit: number): Promise<ConversationSummary[]> {
  const rows = await db
    .selectFrom("conversations as c")
    .innerJoin("products as p", "p.id", "c.itemId")
    .select([
      "c.id",
      "c.itemId",
      "p.name as itemName",
      "c.lastMessageAt",
      (eb) =>
        eb
          .selectFrom("conversation_messages as m")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("m.conversationId", "=", "c.id")
          .where("m.author", "=", "finder")
          .where("m.readAt", "is", null)
          .as("unread"),
      (eb) =>
        eb
          .selectFrom("conversation_messages as m")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("m.conversationId", "=", "c.id")
          .as("messages"),
      (eb) =>
        eb
          .selectFrom("conversation_messages as m")
          .select("m.text")
          .whereRef("m.conversationId", "=", "c.id")
          .orderBy("m.createdAt", "desc")
          .orderBy("m.id", "desc")
          .limit(1)
          .as("lastText"),
      sql<number>`case when "c"."finderPhone" is null then 0 else 1 end`.as("bySms"),
    ])
    .where(canManage(ownerId, "p"))
    .orderBy("c.lastMessageAt", "desc")
    .orderBy("c.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    itemId: r.itemId,
    itemName: r.itemName,
    lastMessageAt: Number(r.lastMessageAt),
    unread: Number(r.unread ?? 0),
    messages: Number(r.messages ?? 0),
    lastText: r.lastText ?? "",
    bySms: Number(r.bySms) === 1,
  }));
}

/**
 * Above this many items in the organisations a user administers, their unread count starts
 * from the unread messages instead of from the items (decision 042).
 */
const UNREAD_PER_ITEM_MAX = 2000;

/**
 * Finder messages not opened yet, over the conversations of the items the user manages:
 * their personal items, every item of an organisation they administer, and the items
 * assigned to them in organisations they belong to (the rule of canManage).
 *
 * Every signed-in page shows this count, so its cost must follow the user, not the whole
 * database (decision 042). The memberships are read first (a handful of rows). The user's
 * own and assigned items are found through their indexes and each one's unread messages
 * counted through the item's conversations; so are an administered organisation's items,
 * up to UNREAD_PER_ITEM_MAX of them. Beyond that (a 50,000-item organisation) the count
 * starts from the unread messages (a partial index, a small set) and looks up each one's
 * item: whichever set is smaller is walked.
 */
export async function countUnreadOfOwner(db: DB, ownerId: string, perItemMax = UNREAD_PER_ITEM_MAX): Promise<number> {
  const memberships = await db
    .selectFrom("organisation_members")
    .select(["organisationId", "role"])
    .where("userId", "=", ownerId)
    .execute();
  const everyConversation = (m: { role: string }) => may(toOrgRole(m.role), "organisation", "everyConversation");
  const adminOf = memberships.filter(everyConversation).map((m) => m.organisationId);
  const memberOf = memberships.filter((m) => !everyConversation(m)).map((m) => m.organisationId);
  const [own, administered] = await Promise.all([
    countUnreadPerItem(db, (eb) =>
      eb.or([
        eb.and([eb("p.organisationId", "is", null), eb("p.owner", "=", ownerId)]),
        ...(memberOf.length > 0
          ? [eb.and([eb("p.assignedTo", "=", ownerId), eb("p.organisationId", "in", memberOf)])]
          : []),
      ]),
    ),
    adminOf.length === 0 ? 0 : countUnreadInOrganisations(db, adminOf, perItemMax),
  ]);
  return own + administered;
}

/** A condition on the items, as `products as p`. */
type ItemFilter = (eb: ExpressionBuilder<Database & { p: Database["products"] }, "p">) => Expression<SqlBool>;

/**
 * The unread finder messages of the items `filter` picks, item by item through the indexes:
 * each item's conversations (`conversations_item_idx`), then each conversation's unread
 * messages (`conversation_messages_unread_idx`). Nested subqueries, not a join, so the
 * planner cannot turn the walk around: as a join, on tables it had no statistics for yet
 * (autovacuum off, or a table just filled), it read every unread message in the database
 * once per item — 7.4 s for a 6,000-item owner in a soak, growing with every message.
 */
async function countUnreadPerItem(db: DB, filter: ItemFilter): Promise<number> {
  const perItem = db
    .selectFrom("products as p")
    .select((eb) =>
      eb
        .selectFrom("conversations as c")
        .select((inner) =>
          sql<number>`coalesce(sum(${inner
            .selectFrom("conversation_messages as m")
            .select(sql<number>`count(*)`.as("n"))
            .whereRef("m.conversationId", "=", "c.id")
            .where("m.author", "=", "finder")
            .where("m.readAt", "is", null)}), 0)`.as("n"),
        )
        .whereRef("c.itemId", "=", "p.id")
        .as("n"),
    )
    .where(filter);
  const row = await db
    .selectFrom(perItem.as("items"))
    .select(sql<number>`coalesce(sum(${sql.ref("items.n")}), 0)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function countUnreadInOrganisations(db: DB, organisationIds: string[], perItemMax: number): Promise<number> {
  // Whether there are more than perItemMax items, without counting all of them: a
  // 50,000-item organisation's count was 20 ms of every signed-in page its admins open.
  const upTo = db
    .selectFrom("products")
    .select("id")
    .where("organisationId", "in", organisationIds)
    .limit(perItemMax + 1);
  const items = await db
    .selectFrom(upTo.as("items"))
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  if (Number(items.n) <= perItemMax) {
    return countUnreadPerItem(db, (eb) => eb("p.organisationId", "in", organisationIds));
  }
  const row = await db
    .selectFrom("conversation_messages as m")
    .select(sql<number>`count(*)`.as("n"))
    .where("m.author", "=", "finder")
    .where("m.readAt", "is", null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("conversations as c")
          .innerJoin("products as p", "p.id", "c.itemId")
          .select(sql.lit(1).as("one"))
          .whereRef("c.id", "=", "m.conversationId")
          .where("p.organisationId", "in", organisationIds),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Retention (decision 013: 180 days after the last message). Messages first, then their
 * conversations, so the deletes do not depend on the database enforcing the cascade.
 */
export async function deleteConversationsBefore(db: DB, before: number): Promise<number> {
  await db
    .deleteFrom("conversation_messages")
    .where("conversationId", "in", (eb) =>
      eb.selectFrom("conversations").select("id").where("lastMessageAt", "<", before),
    )
    .execute();
  const r = await db.deleteFrom("conversations").where("lastMessageAt", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Where the owner's notices go, and in which language. */
export async function findOwnerForMail(
  db: DB,
  userId: string,
): Promise<{ email: string; emailVerified: boolean; language: "en" | "sv" } | undefined> {
  const row = await db
    .selectFrom("user")
    .select(["email", "emailVerified", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return (
    row && {
      email: row.email,
      emailVerified: readBool(row.emailVerified),
      language: row.language === "sv" ? "sv" : "en",
    }
  );
}

/*
 * Digests of a burst (decision 029, migration 0020). Each function is one statement, so
 * concurrent messages and several instances' digest jobs count and claim exactly.
 */

/** Adds one message to the item's digest, starting a burst row when there is none. */
export async function addToDigest(db: DB, itemId: string): Promise<void> {
  await db
    .insertInto("relay_digests")
    .values({ itemId, pending: 1, lastSentAt: null, lastCount: 0 })
    .onConflict((oc) => oc.column("itemId").doUpdateSet({ pending: sql<number>`"relay_digests"."pending" + 1` }))
    .execute();
}

/** Adds one message to a burst whose last digest went out after `since`; false when there is none. */
export async function addToRecentDigest(db: DB, itemId: string, since: number): Promise<boolean> {
  const r = await db
    .updateTable("relay_digests")
    .set({ pending: sql<number>`"pending" + 1` })
    .where("itemId", "=", itemId)
    .where("lastSentAt", ">", since)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Claims the item's digest when one is due (messages pending, no digest after
 * `dueBefore`): marks it sent at `now` and answers how many messages it reports, or null
 * when it is not due (or another request or instance claimed it first).
 */
export async function claimDigest(db: DB, itemId: string, now: number, dueBefore: number): Promise<number | null> {
  const row = await db
    .updateTable("relay_digests")
    // Every right-hand side reads the row as it was: lastCount takes the old pending.
    .set({ lastSentAt: now, lastCount: sql<number>`"pending"`, pending: 0 })
    .where("itemId", "=", itemId)
    .where("pending", ">", 0)
    .where((eb) => eb.or([eb("lastSentAt", "is", null), eb("lastSentAt", "<=", dueBefore)]))
    .returning("lastCount")
    .executeTakeFirst();
  return row ? Number(row.lastCount) : null;
}

/** Digests that are due (see claimDigest). */
function dueDigests(db: DB, dueBefore: number) {
  return db
    .selectFrom("relay_digests")
    .select("itemId")
    .where("pending", ">", 0)
    .where((eb) => eb.or([eb("lastSentAt", "is", null), eb("lastSentAt", "<=", dueBefore)]));
}

/** Whether the item's digest is due; a hint only, the claim decides. */
export async function isDigestDue(db: DB, itemId: string, dueBefore: number): Promise<boolean> {
  return (await dueDigests(db, dueBefore).where("itemId", "=", itemId).executeTakeFirst()) !== undefined;
}

/** Items whose digest is due, oldest first. */
export async function listDueDigests(db: DB, dueBefore: number, limit: number): Promise<string[]> {
  const rows = await dueDigests(db, dueBefore).orderBy("lastSentAt").limit(limit).execute();
  return rows.map((r) => r.itemId);
}

/** Bursts that are over: nothing pending and the last digest sent at or before `before`. */
export async function deleteFinishedDigests(db: DB, before: number): Promise<number> {
  const r = await db
    .deleteFrom("relay_digests")
    .where("pending", "=", 0)
    .where("lastSentAt", "<=", before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
