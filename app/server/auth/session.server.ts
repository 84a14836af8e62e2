import { data, redirect } from "react-router";
import type { SessionUser } from "~/lib/domain/session-user";
import { getDeps } from "../deps.server";
import { isAdminUser } from "./accounts.service.server";
import { may, staffRole } from "~/lib/domain/permissions";

/** The signed-in user for this request, or null. Reads the session from the database. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  // Most visitors (finders scanning a sticker) have no session cookie: no lookup then.
  if (!request.headers.get("cookie")?.includes(".session_token=")) return null;
  const deps = await getDeps();
  const session = await deps.auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const u = session.user;
  const emailVerified = u.emailVerified === true;
  return {
    ref: u.id,
    name: u.name ?? "",
    email: u.email,
    img: u.image ?? null,
    emailVerified,
    isAdmin: await isAdminUser(deps, { id: u.id, email: u.email, emailVerified }),
  };
}

/**
 * Guard for the signed-out-only pages (/login, /user/register, /resetpassword): a
 * signed-in user with a name goes to the dashboard. (One without a name may still use
 * them, as the dashboard would send them back.)
 */
export async function requireSignedOut(request: Request): Promise<void> {
  const user = await getSessionUser(request);
  if (user?.name.trim()) throw redirect("/dashboard");
}

/** Guard: a signed-in user, else redirect to /login, which returns here after sign-in. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) {
    const remember = (await getDeps()).cookies.returnTo(request);
    throw redirect("/login", remember ? { headers: { "Set-Cookie": remember } } : undefined);
  }
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

/** Guard for staff pages: anyone else gets the 404 page, so the pages stay invisible. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user || !may(staffRole(user), "staffDesk", "use")) throw data(null, { status: 404 });
  return user;
}
