/**
 * The active scope of a request (decision 022), one way for every route that lists or
 * registers items: the `hittad.scope` cookie, checked against membership in the database.
 */
import * as cookie from "cookie";
import { SCOPE_COOKIE } from "~/lib/domain/organisation-roles";
import type { Deps } from "../service-deps.server";
import { resolveScope, type Scope } from "./scope.server";

/** The scope the request's cookie names, unchecked: only resolveScope may trust it. */
export function scopeCookieOf(request: Request): string | undefined {
  return cookie.parse(request.headers.get("Cookie") ?? "")[SCOPE_COOKIE];
}

export async function activeScopeOf(deps: Pick<Deps, "db">, request: Request, userId: string): Promise<Scope> {
  return resolveScope(deps.db, userId, scopeCookieOf(request));
}

/** The organisation whose items a scope lists and registers; null for the personal scope. */
export function organisationIdOf(scope: Scope): string | null {
  return scope.kind === "organisation" ? scope.organisationId : null;
}
