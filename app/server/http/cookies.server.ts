/**
 * Every Set-Cookie the routes write, made once at start-up from the configuration
 * (runtime.server.ts) and handed to routes as `deps.cookies` (decision 039): whether a
 * cookie is `Secure` is decided here, not at each call site. Reading and clearing cookies
 * stays with the feature that owns each one.
 */
import * as cookie from "cookie";
import type { Lang } from "~/i18n/config";
import { LANG_COOKIE } from "~/i18n/config";
import { CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS } from "~/lib/domain/consent";
import { SCOPE_COOKIE } from "~/lib/domain/organisation-roles";
import { PACKAGE_COOKIE, PACKAGE_COOKIE_DAYS, parsePackage } from "~/lib/domain/package-choice";
import { rememberReturnTo } from "./return-to.server";
import type { Config } from "../config.server";
import { setFlash, type FlashKey } from "../flash.server";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export interface CookieWriters {
  /** A one-shot message for the page a redirect opens (flash.server.ts). */
  flash(key: FlashKey): string;
  /** The request's page, for sign-in to return to; null when it is not worth returning to. */
  returnTo(request: Request): string | null;
  /** The request's `?package=` choice of the home page; null when it names no package. */
  packageChoice(request: Request): string | null;
  /** The active scope (`personal` or an organisation id the membership was checked for). */
  scope(value: string): string;
  /** The chosen language of the pages. */
  language(lang: Lang): string;
  /** The cookie banner's acceptance. */
  consent(): string;
}

export function createCookieWriters(config: Pick<Config, "secureCookies">): CookieWriters {
  const secure = config.secureCookies;
  return {
    flash: (key) => setFlash(key, secure),
    returnTo: (request) => rememberReturnTo(request, secure),
    packageChoice: (request) => {
      const chosen = parsePackage(new URL(request.url).searchParams.get("package"));
      if (!chosen) return null;
      return cookie.serialize(PACKAGE_COOKIE, chosen, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure,
        maxAge: PACKAGE_COOKIE_DAYS * 24 * 60 * 60,
      });
    },
    scope: (value) =>
      cookie.serialize(SCOPE_COOKIE, value, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure,
        maxAge: YEAR_SECONDS,
      }),
    language: (lang) =>
      cookie.serialize(LANG_COOKIE, lang, { path: "/", maxAge: YEAR_SECONDS, sameSite: "lax", secure }),
    consent: () =>
      cookie.serialize(CONSENT_COOKIE, "true", { path: "/", maxAge: CONSENT_MAX_AGE_SECONDS, sameSite: "lax", secure }),
  };
}
