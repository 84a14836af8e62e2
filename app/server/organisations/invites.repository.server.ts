/**
 * SQL of organisation invites (decision 022): stored by token hash, listed while open,
 * accepted once. Rows are converted here (decision 004).
 */
import type { Selectable } from "kysely";
import { toOrgRole, type OrgRole } from "~/lib/domain/organisation-roles";
import type { DB } from "../db/db.server";
import type { OrganisationInviteTable } from "../db/schema";

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

/** An invite to `email` (lower case) in the organisation that is neither accepted nor expired. */
export async function hasOpenInvite(db: DB, organisationId: string, email: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom("organisation_invites")
    .select("id")
    .where("organisationId", "=", organisationId)
    .where("email", "=", email)
    .where("acceptedAt", "is", null)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return !!row;
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
 * acceptances and re-checks that the inviter is still an admin, and the membership is
 * added in the same transaction (an existing membership keeps its role). False when it
 * was already used, has expired or its inviter is no longer an admin.
 */
export async function acceptInvite(db: DB, invite: Invite, userId: string, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("organisation_invites")
      .set({ acceptedAt: now, acceptedBy: userId })
      .where("id", "=", invite.id)
      .where("acceptedAt", "is", null)
      .where("expiresAt", ">", now)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("organisation_members")
            .select("userId")
            .where("organisationId", "=", invite.organisationId)
            .where("userId", "=", invite.invitedBy)
            .where("role", "=", "admin"),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    // Two invites accepted at once (two admins invited the same person): one membership.
    await trx
      .insertInto("organisation_members")
      .values({ organisationId: invite.organisationId, userId, role: invite.role, createdAt: now })
      .onConflict((oc) => oc.columns(["organisationId", "userId"]).doNothing())
      .execute();
    return true;
  });
}
