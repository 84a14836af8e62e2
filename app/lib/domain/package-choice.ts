/**
 * The package a visitor chose on the home page ("Choose Triple", decision 018),
 * remembered through registration or sign-in so the product form and /order start from
 * it. Browser-safe: the cookie's name and the parser only.
 */
import { PACKAGES, type PackageName } from "./pricing";

export const PACKAGE_COOKIE = "hittad.package";
/** A day: enough to register, confirm the email and come back; not a lasting profile. */
export const PACKAGE_COOKIE_DAYS = 1;

/** A package name, or null for anything else (untrusted query and cookie values). */
export function parsePackage(v: unknown): PackageName | null {
  return typeof v === "string" && (PACKAGES as readonly string[]).includes(v) ? (v as PackageName) : null;
}
