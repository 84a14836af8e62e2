/**
 * Where sign-in returns to (decision 018): a protected page that sent a signed-out visitor
 * to /login remembers its path in a short-lived cookie, and a successful sign-in goes
 * back there instead of /dashboard (`/order` → `/login` → `/order`). The redirect to
 * /login itself stays exactly "/login" (the spec's route; links in the wild).
 *
 * The path is validated twice as a local path (safeRedirectTarget): when it is stored and
 * when it is used, so a cookie set by anyone else can never send the user off-site.
 */
import * as cookie from "cookie";
import { safeRedirectTarget } from "~/lib/domain/redirect-target";
import { RETURN_TO_COOKIE } from "~/lib/domain/return-to";

export { RETURN_TO_COOKIE };
/** Ten minutes: long enough to find a password, short enough not to surprise later. */
const MAX_AGE_SECONDS = 600;

/** Set-Cookie remembering the request's page, or null when it is not worth returning to. */
export function rememberReturnTo(request: Request, secure: boolean): string | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  // React Router's data requests (`/order.data`) stand for the page without the suffix.
  const pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const qs = search.toString();
  const target = safeRedirectTarget(`${pathname}${qs ? `?${qs}` : ""}`, "");
  if (!target || target === "/" || target.startsWith("/login")) return null;
  return cookie.serialize(RETURN_TO_COOKIE, target, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: MAX_AGE_SECONDS,
  });
}

/** Set-Cookie that forgets the remembered page. */
export function forgetReturnTo(): string {
  return cookie.serialize(RETURN_TO_COOKIE, "", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 0 });
}

/** The remembered local path (or `fallback`) and the Set-Cookie that forgets it. */
export function takeReturnTo(request: Request, fallback: string): { to: string; clear: string | null } {
  const value = cookie.parse(request.headers.get("Cookie") ?? "")[RETURN_TO_COOKIE];
  if (value === undefined) return { to: fallback, clear: null };
  return { to: safeRedirectTarget(value, fallback), clear: forgetReturnTo() };
}
