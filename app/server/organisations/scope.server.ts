/**
 * The active scope (decision 022): personal or one organisation. The cookie `hittad.scope`
 * only names a choice; it is checked against the membership table on every request, so
 * a forged or stale cookie (another organisation's id, a membership since removed) falls
 * back to personal.
 */
import { PERSONAL_SCOPE, type Scope } from "~/lib/domain/organisation-roles";
import type { DB } from "../db/db.server";
import { findMembership, findOrganisation, listMembershipsOfUser } from "./organisations.repository.server";

export type { Scope } from "~/lib/domain/organisation-roles";

const PERSONAL: Scope = { kind: "personal" };

export async function resolveScope(db: DB, userId: string, cookieValue: string | null | undefined): Promise<Scope> {
  if (!cookieValue || cookieValue === PERSONAL_SCOPE || cookieValue.length > 64) return PERSONAL;
  const membership = await findMembership(db, cookieValue, userId);
  if (!membership) return PERSONAL;
  const org = await findOrganisation(db, membership.organisationId);
  if (!org) return PERSONAL;
  return { kind: "organisation", organisationId: org.id, name: org.name, role: membership.role };
}

export interface ScopeMenu {
  scope: Scope;
  /** The user's organisations, by name (empty: no switch is shown). */
  organisations: { id: string; name: string }[];
}

/**
 * The user menu's scope switch and the active scope in one query: the cookie counts only
 * when it names one of the user's memberships (the same check as resolveScope).
 */
export async function resolveScopeMenu(
  db: DB,
  userId: string,
  cookieValue: string | null | undefined,
): Promise<ScopeMenu> {
  const memberships = await listMembershipsOfUser(db, userId);
  const active = cookieValue ? memberships.find((m) => m.organisationId === cookieValue) : undefined;
  return {
    scope: active
      ? {
          kind: "organisation",
          organisationId: active.organisationId,
          name: active.organisationName,
          role: active.role,
        }
      : PERSONAL,
    organisations: memberships.map((m) => ({ id: m.organisationId, name: m.organisationName })),
  };
}
