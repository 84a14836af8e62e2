/**
 * Organisation roles and scope (issue #20), shared by server and components (no zod here,
 * so the header stays light).
 */
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

/** An invite is valid this long after it was made. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * The translation areas of the organisation pages: the layout's (header, user menu, footer,
 * consent, verify notice), the form kit's and their own, which no other page loads first.
 */
export const ORGANISATION_PAGE_AREAS = [
  "layout",
  "errors",
  "consent",
  "relay",
  "auth",
  "common",
  "organisations",
  "invoices",
  "billing",
];
