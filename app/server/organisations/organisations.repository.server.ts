/**
 * SQL of organisations (issue #20): organisations, their members and invites, and the
 * organisation columns of products. One query per function, the same on SQLite and
 * PostgreSQL; rows are converted here (decision 004): bigint → number, role text → OrgRole.
 */
import type { Insertable, Selectable } from "kysely";
import { toOrgRole, type OrgRole } from "~/lib/organisation-roles";
import type { DB } from "../db/db.server";
import type { OrganisationInviteTable, OrganisationTable } from "../db/schema";

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
}

export type OrganisationDetails = Omit<Organisation, "id" | "createdAt" | "updatedAt">;

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

export interface Invite {
  id: string;
  organisationId: string;
  email: string;
  role: OrgRole;
  tokenHash: string;
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
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
  };
}

function toInvite(row: Selectable<OrganisationInviteTable>): Invite {
  return {
    id: row.id,
    organisationId: row.organisationId,
    email: row.email,
    role: toOrgRole(row.role),
    tokenHash: row.tokenHash,
    invitedBy: row.invitedBy,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    acceptedAt: row.acceptedAt == null ? null : Number(row.acceptedAt),
    acceptedBy: row.acceptedBy ?? null,
  };
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

export async function insertOrganisation(db: DB, org: Insertable<OrganisationTable>, creatorId: string) {
  await db.transaction().execute(async (trx) => {
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
}

export async function deleteOrganisation(db: DB, id: string) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("products").where("organisationId", "=", id).execute();
    await trx.deleteFrom("organisations").where("id", "=", id).execute();
  });
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

/** Removes the membership; the member's items go back to the organisation (nothing is deleted). */
export async function removeMember(db: DB, organisationId: string, userId: string, now: number) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("products")
      .set({ assignedTo: null, updatedAt: now })
      .where("organisationId", "=", organisationId)
      .where("assignedTo", "=", userId)
      .execute();
    await trx
      .deleteFrom("organisation_members")
      .where("organisationId", "=", organisationId)
      .where("userId", "=", userId)
      .execute();
  });
}

export async function insertInvite(db: DB, invite: Invite) {
  await db.insertInto("organisation_invites").values(invite).execute();
}

/** Invites not accepted yet (expired ones included, so an admin sees them lapse). */
export async function listOpenInvites(db: DB, organisationId: string): Promise<Invite[]> {
  const rows = await db
    .selectFrom("organisation_invites")
    .selectAll()
    .where("organisationId", "=", organisationId)
    .where("acceptedAt", "is", null)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toInvite);
}

export async function findInviteByTokenHash(db: DB, tokenHash: string): Promise<Invite | undefined> {
  const row = await db
    .selectFrom("organisation_invites")
    .selectAll()
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  return row && toInvite(row);
}

export async function deleteInvite(db: DB, organisationId: string, inviteId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("organisation_invites")
    .where("organisationId", "=", organisationId)
    .where("id", "=", inviteId)
    .where("acceptedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Accepts the invite once: the conditional UPDATE decides between two concurrent
 * acceptances, and the membership is added in the same transaction (an existing
 * membership keeps its role). False when it was already used or has expired.
 */
export async function acceptInvite(db: DB, invite: Invite, userId: string, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("organisation_invites")
      .set({ acceptedAt: now, acceptedBy: userId })
      .where("id", "=", invite.id)
      .where("acceptedAt", "is", null)
      .where("expiresAt", ">", now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const existing = await trx
      .selectFrom("organisation_members")
      .select("userId")
      .where("organisationId", "=", invite.organisationId)
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (!existing) {
      await trx
        .insertInto("organisation_members")
        .values({ organisationId: invite.organisationId, userId, role: invite.role, createdAt: now })
        .execute();
    }
    return true;
  });
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

/**
 * What deleting a user's account does to organisations (inside the deletion's transaction):
 * organisations they are the only member of are deleted with their items; in the others,
 * items they created pass to the longest-standing remaining admin (who then pays for them)
 * and items assigned to them go back to the organisation. Returns the deleted item ids.
 */
export async function eraseUserFromOrganisations(db: DB, userId: string, now: number): Promise<string[]> {
  const mine = await db
    .selectFrom("organisation_members")
    .select("organisationId")
    .where("userId", "=", userId)
    .execute();
  const deletedItems: string[] = [];
  for (const { organisationId } of mine) {
    const others = await db
      .selectFrom("organisation_members")
      .select(["userId", "role"])
      .where("organisationId", "=", organisationId)
      .where("userId", "!=", userId)
      .orderBy("createdAt")
      .orderBy("userId")
      .execute();
    if (others.length === 0) {
      const items = await db.selectFrom("products").select("id").where("organisationId", "=", organisationId).execute();
      deletedItems.push(...items.map((i) => i.id));
      await db.deleteFrom("products").where("organisationId", "=", organisationId).execute();
      await db.deleteFrom("organisations").where("id", "=", organisationId).execute();
      continue;
    }
    const heir = others.find((o) => o.role === "admin") ?? others[0]!;
    await db
      .updateTable("products")
      .set({ owner: heir.userId, updatedAt: now })
      .where("organisationId", "=", organisationId)
      .where("owner", "=", userId)
      .execute();
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
