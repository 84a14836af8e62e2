/**
 * What every page's root loader adds to the request's language and consent (app/root.tsx):
 * the signed-in user, the finder messages they have not read (decision 013), the scope menu
 * (decision 022, the cookie checked against their memberships) and whether payments are the
 * test provider. A database that is down leaves each read its fallback and marks the request,
 * so entry.server answers 503 with the language and consent kept.
 */
import { getSessionUser } from "./auth/session.server";
import { getDeps } from "./deps.server";
import { isDatabaseUnavailable, markDatabaseUnavailable } from "./http/unavailable.server";
import { testPaymentsActive } from "./orders/payments.server";
import { resolveScopeMenu, type ScopeMenu } from "./organisations/scope.server";
import { scopeCookieOf } from "./organisations/scope.http.server";
import { countOwnerUnread } from "./relay/relay.service.server";

export async function rootData(request: Request, loadContext: object) {
  /** A read the database's outage turns into its fallback (and the page into a 503). */
  const orWhenDown = <T>(work: Promise<T>, fallback: T): Promise<T> =>
    work.catch((err: unknown) => {
      if (!isDatabaseUnavailable(err)) throw err;
      markDatabaseUnavailable(loadContext);
      return fallback;
    });
  const [user, deps] = await Promise.all([orWhenDown(getSessionUser(request), null), getDeps()]);
  const unreadMessages = user ? await orWhenDown(countOwnerUnread(deps, user.ref), 0) : 0;
  const scopeMenu = user
    ? await orWhenDown<ScopeMenu | null>(resolveScopeMenu(deps.db, user.ref, scopeCookieOf(request)), null)
    : null;
  return { user, unreadMessages, scopeMenu, testPayments: testPaymentsActive(deps.config) };
}
