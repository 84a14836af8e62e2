/**
 * Remembers the package chosen on the home page (decision 018) in a small HttpOnly
 * cookie: the home page's "Choose …" links carry `?package=`, the page they open stores it,
 * and the product form and /order read it (signed-in, so nothing is stored for visitors
 * beyond this cookie). Only the two package names are ever stored or read.
 */
import { redirect } from "react-router";
import * as cookie from "cookie";
import { PACKAGE_COOKIE, parsePackage } from "~/lib/domain/package-choice";
import type { PackageName } from "~/lib/domain/pricing";
import { forgetReturnTo } from "../http/return-to.server";
import { requireSignedOut } from "../auth/session.server";
import type { CookieWriters } from "../http/cookies.server";

/** The remembered package, or null. */
export function chosenPackage(request: Request): PackageName | null {
  return parsePackage(cookie.parse(request.headers.get("Cookie") ?? "")[PACKAGE_COOKIE]);
}

/** Set-Cookie that forgets the choice (once a checkout starts). */
export function forgetPackage(): string {
  return cookie.serialize(PACKAGE_COOKIE, "", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 0 });
}

/**
 * For the pages the home page's "Choose …" links open (/user/register, /login): the
 * headers remembering `?package=`, also on the redirect a signed-in visitor gets there.
 */
export async function signedOutRemembering(
  request: Request,
  writers: Pick<CookieWriters, "packageChoice">,
): Promise<Headers> {
  const headers = new Headers();
  const set = writers.packageChoice(request);
  // The newer intent wins: a package chosen now goes before a page remembered earlier,
  // and a page that sends the visitor to sign in later sets its own again.
  const cookies = set ? [set, forgetReturnTo()] : [];
  for (const c of cookies) headers.append("Set-Cookie", c);
  try {
    await requireSignedOut(request);
  } catch (err) {
    if (!(err instanceof Response)) throw err;
    // Signed in already: a package chosen now goes on to registering
    // its items, where the form says what the package is, not to the dashboard without a word.
    // Triple: its three items on one page (decision 038).
    if (set) throw redirect(registerPageFor(request), { headers });
    for (const c of cookies) err.headers.append("Set-Cookie", c);
    throw err;
  }
  return headers;
}

/** Where a signed-in visitor's "Choose …" goes: the Triple's three-item form, or the single form. */
function registerPageFor(request: Request): string {
  const triple = new URL(request.url).searchParams.get("package") === "tripple";
  return triple ? "/product/register?package=tripple" : "/product/register";
}
