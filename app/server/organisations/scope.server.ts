/**
 * The active scope (issue #20): personal or one organisation. The cookie `hittad.scope`
 * only names a choice; it is checked against the membership table on every request, so
 * a forged or stale cookie (another organisation's id, a membership since removed) falls
 * back to personal.
 */
import { PERSONAL_SCOPE, type Scope } from "~/lib/organisation-roles";
import type { DB } from "../db/db.server";
import { findMembership, findOrganisation } from "./organisations.repository.server";

export type { Scope } from "~/lib/organisation-roles";

const PERSONAL: Scope = { kind: "personal" };

export async function resolveScope(db: DB, userId: string, cookieValue: string | null | undefined): Promise<Scope> {
  if (!cookieValue || cookieValue === PERSONAL_SCOPE || cookieValue.length > 64) return PERSONAL;
  const membership = await findMembership(db, cookieValue, userId);
  if (!membership) return PERSONAL;
  const org = await findOrganisation(db, membership.organisationId);
  if (!org) return PERSONAL;
  return { kind: "organisation", organisationId: org.id, name: org.name, role: membership.role };
}
