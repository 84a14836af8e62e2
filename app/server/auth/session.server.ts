import { data, redirect } from "react-router";
import type { SessionUser } from "~/lib/session-user";
import { hasAdminGrant } from "../admin/admin.repository.server";
import { getRuntime } from "../runtime.server";

/** The signed-in user for this request, or null. Reads the session from the database. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  // Most visitors (finders scanning a sticker) have no session cookie: no lookup then.
  if (!request.headers.get("cookie")?.includes(".session_token=")) return null;
  const { auth, config, database } = await getRuntime();
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const u = session.user;
  const email = u.email.toLowerCase();
  // ADMIN_EMAILS first (no query), then grants made with `npm run admin:grant`.
  const isAdmin = config.adminEmails.includes(email) || (await hasAdminGrant(database.db, email));
  return {
    ref: u.id,
    name: u.name ?? "",
    email: u.email,
    img: u.image ?? null,
    isAdmin,
  };
}

/** Guard: a signed-in user, else redirect to /login. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/login");
  return user;
}

/**
 * Guard for screens the spec reserves for users with a name (address, order):
 * redirect to `to` (the spec says /login for those, / for the dashboard).
 */
export async function requireNamedUser(request: Request, to: "/login" | "/" = "/login"): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!user.name.trim()) throw redirect(to);
  return user;
}

/** Guard for admin pages: anyone else gets the 404 page, so the pages stay invisible. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user?.isAdmin) throw data(null, { status: 404 });
  return user;
}
