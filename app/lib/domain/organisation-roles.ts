/**
 * Organisation roles and scope (decision 022), shared by server and components (no zod here,
 * so the header stays light).
 */
import { may } from "./permissions";

export type OrgRole = "admin" | "member";

export const ORG_ROLES: readonly OrgRole[] = ["admin", "member"];

export function toOrgRole(value: string): OrgRole {
  return value === "admin" ? "admin" : "member";
}

/** The cookie naming the active scope: `personal` or an organisation id (re-checked on every request). */
export const SCOPE_COOKIE = "hittad.scope";
export const PERSONAL_SCOPE = "personal";

export type Scope =
  { kind: "personal" } | { kind: "organisation"; organisationId: string; name: string; role: OrgRole };

/** What a scope may be allowed to do; each action's rule is in `can`. */
export type ScopeAction = "csv";

/**
 * The one place that decides what the active scope allows (decision 039): `csv` is the
 * CSV import, export and template, for the personal account and an organisation's admins
 * (its plain members get 404 there, and the dashboard shows them no CSV links).
 */
export function can(scope: Scope, action: ScopeAction): boolean {
  switch (action) {
    case "csv":
      return scope.kind === "personal" ? may("owner", "account", "csv") : may(scope.role, "organisation", "csv");
  }
}

/** An invite is valid this long after it was made. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;
