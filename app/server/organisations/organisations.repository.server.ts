/**
 * SQL of organisations (decision 022): organisations, their members (invites:
 * invites.repository.server.ts), and the
 * organisation columns of products. One query per function, the same on SQLite and
 * PostgreSQL; rows are converted here (decision 004): bigint → number, role text → OrgRole.
 */
import type { Insertable, Selectable } from "kysely";
import { toOrgRole, type OrgRole } from "~/lib/domain/organisation-roles";
import type { DB } from "../db/db.server";
import type { OrganisationTable } from "../db/schema";
import { may } from "~/lib/domain/permissions";

export interface Organisation {
  id: string;
  name: string;
  orgNumber: string;
  billingEmail: string;
  invoiceStreet: string;
  invoicePostcode: string;
  invoiceCity: string;
  invoiceCountry: string;
  vatNumber: string | null;
  deskContact: string;
  createdAt: number;
  updatedAt: number;
  /** The billing address whose confirmation link was opened (decision 028); null: none yet. */
  billingEmailConfirmed: string | null;
}

export type OrganisationDetails = Omit<Organisation, "id" | "createdAt" | "updatedAt" | "billingEmailConfirmed">;

export interface Membership {
  organisationId: string;
  userId: string;
  role: OrgRole;
  createdAt: number;
}

export interface MembershipWithName extends Membership {
  organisationName: string;
}

export interface Member extends Membership {
  name: string;
  email: string;
}

function toOrganisation(row: Selectable<OrganisationTable>): Organisation {
  return {
    id: row.id,
    name: row.name,
    orgNumber: row.orgNumber,
    billingEmail: row.billingEmail,
    invoiceStreet: row.invoiceStreet,
    invoicePostcode: row.invoicePostcode,
    invoiceCity: row.invoiceCity,
    invoiceCountry: row.invoiceCountry,
    vatNumber: row.vatNumber ?? null,
    deskContact: row.deskContact,
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    billingEmailConfirmed: row.billingEmailConfirmed ?? null,
  };
}

/** The pending billing-email confirmation link (one at a time: a new one replaces it). */
export async function setBillingConfirmLink(
  db: DB,
  id: string,
  link: { tokenHash: string; email: string; expiresAt: number },
) {
  await db
    .updateTable("organisations")
    .set({
      billingConfirmTokenHash: link.tokenHash,
      billingConfirmEmail: link.email,
      billingConfirmExpiresAt: link.expiresAt,
    })
    .where("id", "=", id)
    .execute();
}

/**
 * Confirms the billing email of the link's organisation in one conditional update: the link
 * unexpired and sent to the address the organisation still bills. Used once (the link is
 * cleared). Answers the organisation's name, or null.
 */
export async function confirmBillingEmail(db: DB, tokenHash: string, now: number): Promise<string | null> {
  const row = await db
    .updateTable("organisations")
    .set((eb) => ({
      billingEmailConfirmed: eb.ref("billingConfirmEmail"),
      billingEmailConfirmedAt: now,
      billingConfirmTokenHash: null,
      billingConfirmEmail: null,
      billingConfirmExpiresAt: null,
    }))
    .where("billingConfirmTokenHash", "=", tokenHash)
    .where("billingConfirmExpiresAt", ">", now)
    .where((eb) => eb(eb.fn("lower", ["billingEmail"]), "=", eb.ref("billingConfirmEmail")))
    .returning("name")
    .executeTakeFirst();
  return row?.name ?? null;
}

const toMembership = (row: {
  organisationId: string;
  userId: string;
  role: string;
  createdAt: number;
}): Membership => ({
  organisationId: row.organisationId,
  userId: row.userId,
  role: toOrgRole(row.role),
  createdAt: Number(row.createdAt),
});

/** `before` runs first in the same transaction (a check that refuses by throwing). */
export async function insertOrganisation(
  db: DB,
  org: Insertable<OrganisationTable>,
  creatorId: string,
  before?: (trx: DB) => Promise<void>,
) {
  await db.transaction().execute(async (trx) => {
    await before?.(trx);
    await trx.insertInto("organisations").values(org).execute();
    await trx
      .insertInto("organisation_members")
      .values({ organisationId: org.id, userId: creatorId, role: "admin", createdAt: org.createdAt })
      .execute();
  });
}

export async function findOrganisation(db: DB, id: string): Promise<Organisation | undefined> {
  const row = await db.selectFrom("organisations").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toOrganisation(row);
}

export async function updateOrganisation(db: DB, id: string, details: OrganisationDetails, now: number) {
  await db
    .updateTable("organisations")
    .set({ ...details, updatedAt: now })
    .where("id", "=", id)
    .execute();
  // The finder pages of its items show its name and desk contact (decision 026): a new
  // version of each, so every instance's finder-page cache renders them afresh.
  await db.updateTable("products").set({ updatedAt: now }).where("organisationId", "=", id).execute();
}

/**
 * Takes the organisation's row lock for the rest of the transaction (a row lock on
 * PostgreSQL; SQLite serialises transactions anyway), so a rule that counts members and
 * then changes them (the last admin) is decided by one transaction at a time.
 */
export async function lockOrganisation(db: DB, id: string, now: number) {
  await db.updateTable("organisations").set({ updatedAt: now }).where("id", "=", id).execute();
}

export async function findMembership(db: DB, organisationId: string, userId: string): Promise<Membership | undefined> {
  const row = await db
    .selectFrom("organisation_members")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row && toMembership(row);
}

/** The user's organisations, by name. */
export async function listMembershipsOfUser(db: DB, userId: string): Promise<MembershipWithName[]> {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("organisations as o", "o.id", "m.organisationId")
    .select(["m.organisationId", "m.userId", "m.role", "m.createdAt", "o.name as organisationName"])
    .where("m.userId", "=", userId)
    .orderBy("o.name")
    .orderBy("o.id")
    .execute();
  return rows.map((r) => ({ ...toMembership(r), organisationName: r.organisationName }));
}

export async function listMembers(db: DB, organisationId: string): Promise<Member[]> {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["m.organisationId", "m.userId", "m.role", "m.createdAt", "u.name", "u.email"])
    .where("m.organisationId", "=", organisationId)
    .orderBy("u.name")
    .orderBy("u.email")
    .execute();
  return rows.map((r) => ({ ...toMembership(r), name: r.name, email: r.email }));
}

/** The member whose account email is `email` (any case), if any. */
export async function findMemberByEmail(db: DB, organisationId: string, email: string): Promise<Member | undefined> {
  const row = await db
    .selectFrom("organisation_members as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["m.organisationId", "m.userId", "m.role", "m.createdAt", "u.name", "u.email"])
    .where("m.organisationId", "=", organisationId)
    .where((eb) => eb(eb.fn("lower", ["u.email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  return row && { ...toMembership(row), name: row.name, email: row.email };
}

export async function countAdmins(db: DB, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom("organisation_members")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organisationId", "=", organisationId)
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countMembers(db: DB, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom("organisation_members")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organisationId", "=", organisationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertMember(db: DB, member: Membership) {
  await db.insertInto("organisation_members").values(member).execute();
}

export async function setMemberRole(db: DB, organisationId: string, userId: string, role: OrgRole) {
  await db
    .updateTable("organisation_members")
    .set({ role })
    .where("organisationId", "=", organisationId)
    .where("userId", "=", userId)
    .execute();
}

/**
 * Who takes over a departing member's items: the longest-standing remaining admin (else,
 * in an organisation without another admin, the longest-standing remaining member).
 * Undefined when nobody else is a member. One rule for removing, leaving and deleting an
 * account.
 */
export async function heirOf(db: DB, organisationId: string, departingUserId: string): Promise<string | undefined> {
  const others = await db
    .selectFrom("organisation_members")
    .select(["userId", "role"])
    .where("organisationId", "=", organisationId)
    .where("userId", "!=", departingUserId)
    .orderBy("createdAt")
    .orderBy("userId")
    .execute();
  return (others.find((o) => may(toOrgRole(o.role), "organisation", "manage")) ?? others[0])?.userId;
}

/**
 * The departing member's items of the organisation pass to `heir` (who then manages and pays
 * for them), with the finder conversations about them: those belong to the organisation,
 * not in the departing member's data export, nor deleted with their account.
 */
async function handOverItems(db: DB, organisationId: string, departingUserId: string, heir: string, now: number) {
  await db
    .updateTable("conversations")
    .set({ ownerId: heir })
    .where("ownerId", "=", departingUserId)
    .where("itemId", "in", db.selectFrom("products").select("id").where("organisationId", "=", organisationId))
    .execute();
  await db
    .updateTable("products")
    .set({ owner: heir, updatedAt: now })
    .where("organisationId", "=", organisationId)
    .where("owner", "=", departingUserId)
    .execute();
}

/** Invites `userId` sent for the organisation that nobody has accepted yet. */
export async function deletePendingInvitesSentBy(db: DB, organisationId: string, userId: string) {
  await db
    .deleteFrom("organisation_invites")
    .where("organisationId", "=", organisationId)
    .where("invitedBy", "=", userId)
    .where("acceptedAt", "is", null)
    .execute();
}

/**
 * Removes the membership (call inside the transaction that checked the last admin): the
 * items the member created pass to the heir (heirOf), items assigned to them go back to
 * the organisation, and the invites they sent and nobody accepted yet are deleted.
 */
export async function removeMember(db: DB, organisationId: string, userId: string, now: number) {
  const heir = await heirOf(db, organisationId, userId);
  if (heir) await handOverItems(db, organisationId, userId, heir, now);
  await db
    .updateTable("products")
    .set({ assignedTo: null, updatedAt: now })
    .where("organisationId", "=", organisationId)
    .where("assignedTo", "=", userId)
    .execute();
  await deletePendingInvitesSentBy(db, organisationId, userId);
  await db
    .deleteFrom("organisation_members")
    .where("organisationId", "=", organisationId)
    .where("userId", "=", userId)
    .execute();
}

/** The language of the account with this email (any case), if there is one. */
export async function findUserLanguageByEmail(db: DB, email: string): Promise<"en" | "sv" | undefined> {
  const row = await db
    .selectFrom("user")
    .select("language")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  if (!row) return undefined;
  return row.language === "sv" ? "sv" : "en";
}

/** Organisations where the user is the only admin and others are members (account deletion refuses). */
export async function listSoleAdminshipsWithOthers(db: DB, userId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("organisations as o", "o.id", "m.organisationId")
    .select(["o.id", "o.name"])
    .where("m.userId", "=", userId)
    .where("m.role", "=", "admin")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("organisation_members as a")
            .select("a.userId")
            .whereRef("a.organisationId", "=", "m.organisationId")
            .where("a.role", "=", "admin")
            .where("a.userId", "!=", userId),
        ),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("organisation_members as o2")
          .select("o2.userId")
          .whereRef("o2.organisationId", "=", "m.organisationId")
          .where("o2.userId", "!=", userId),
      ),
    )
    .orderBy("o.name")
    .execute();
  return rows;
}

/** The organisations the user belongs to, by id (the order their locks are taken in). */
export async function listOrganisationIdsOfUser(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("organisation_members")
    .select("organisationId")
    .where("userId", "=", userId)
    .orderBy("organisationId")
    .execute();
  return rows.map((r) => r.organisationId);
}

/**
 * What deleting a user's account does to organisations (inside the deletion's transaction,
 * after the organisations are locked and the last admin checked): an organisation they are
 * the only member of is deleted with the items THEY created in it; another owner's items
 * in it (there should be none) go back to that owner's personal scope. In the others the
 * membership ends as removeMember ends it (items to the heir, assignments cleared, pending
 * invites deleted). Returns the deleted item ids.
 */
export async function eraseUserFromOrganisations(db: DB, userId: string, now: number): Promise<string[]> {
  const deletedItems: string[] = [];
  for (const organisationId of await listOrganisationIdsOfUser(db, userId)) {
    if (await heirOf(db, organisationId, userId)) {
      await removeMember(db, organisationId, userId, now);
      continue;
    }
    const items = await db
      .selectFrom("products")
      .select("id")
      .where("organisationId", "=", organisationId)
      .where("owner", "=", userId)
      .execute();
    deletedItems.push(...items.map((i) => i.id));
    await db.deleteFrom("products").where("organisationId", "=", organisationId).where("owner", "=", userId).execute();
    await db
      .updateTable("products")
      .set({ organisationId: null, assignedTo: null, updatedAt: now })
      .where("organisationId", "=", organisationId)
      .execute();
    await db.deleteFrom("organisations").where("id", "=", organisationId).execute();
  }
  await db.updateTable("products").set({ assignedTo: null, updatedAt: now }).where("assignedTo", "=", userId).execute();
  return deletedItems;
}

/** The user's memberships for "Download my data". */
export async function readMembershipsForExport(db: DB, userId: string) {
  const rows = await listMembershipsOfUser(db, userId);
  return rows.map((m) => ({
    organisationId: m.organisationId,
    organisation: m.organisationName,
    role: m.role,
    memberSince: new Date(m.createdAt).toISOString(),
  }));
}
