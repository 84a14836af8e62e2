/**
 * Account rules behind the sign-in, registration, reset and logout forms. Calls
 * better-auth's server API (no client library in the browser). Cookies better-auth sets
 * come back as a plain `Headers` value for the route to forward; failures are thrown as
 * AccountError codes (accounts.http.server.ts maps them to statuses and messages).
 */
import { localReturnPath } from "~/lib/domain/redirect-target";
import { APIError } from "better-auth/api";
import type { Lang } from "~/i18n/config";
import type { CaptchaKind } from "~/lib/domain/contact-limits";
import { passwordProblem, type PasswordProblem } from "~/lib/domain/password";
import type { SocialProvider } from "~/lib/domain/social";
import type { Deps } from "../service-deps.server";
import {
  adminGrantsFor,
  bindAdminGrant,
  insertBoundAdminGrant,
  type AdminGrant,
} from "../admin/admin.repository.server";
import { rateLimits, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import { setUserLanguage } from "./accounts.repository.server";
import { enabledProviders, isSocialProvider } from "./auth.server";

export type AccountErrorCode =
  | "invalidCredentials"
  | "rateLimited"
  | "emailTaken"
  | "invalidEmail"
  | `password.${PasswordProblem}`
  | "invalidResetLink"
  | "unsupportedProvider"
  | "providerNotConfigured"
  | "captchaRequired"
  | "captchaFailed"
  | "invalidVerifyLink";

export class AccountError extends ServiceError<AccountErrorCode> {}

const MIN = 60_000;

/** Limits for the account forms; counters live in app_rate_limits, shared by all instances. */
export const ACCOUNT_LIMITS = {
  /** Failed sign-ins from one IP address, whatever the accounts. */
  signInIp: { name: "signin:ip", limit: 30, windowMs: 15 * MIN },
  /**
   * Failed sign-ins for one account from one IP address. Past it, that IP needs the
   * captcha as well as the password; other addresses (the owner's) are not affected.
   */
  signInAccountIp: { name: "signin:account-ip", limit: 8, windowMs: 15 * MIN },
  /** Verification mails asked for again, per user. */
  verifyResend: { name: "verify:user", limit: 3, windowMs: 60 * MIN },
  signUpIp: { name: "signup:ip", limit: 10, windowMs: 60 * MIN },
  resetIp: { name: "reset:ip", limit: 10, windowMs: 60 * MIN },
  resetAccount: { name: "reset:account", limit: 3, windowMs: 60 * MIN },
} satisfies Record<string, RateRule>;

/** The cookies better-auth set, for the route to forward (and an optional next URL). */
export interface SignedIn {
  headers: Headers;
  redirectTo?: string;
}

/**
 * The request headers better-auth reads when it creates a session: only the User-Agent (the
 * sessions list names the browser and system by it, decision 057). Without it every
 * password session was stored without one and listed as "Unknown device".
 */
function browserHeaders(userAgent: string | null | undefined): Headers {
  return new Headers(userAgent ? { "user-agent": userAgent.slice(0, 512) } : {});
}

/** Only the Set-Cookie headers of a better-auth response. */
function cookiesOf(...sources: Array<Headers | undefined>): Headers {
  const out = new Headers();
  for (const h of sources) for (const c of h?.getSetCookie() ?? []) out.append("Set-Cookie", c);
  return out;
}

/** A Cookie request header carrying the cookies a response just set (for a follow-up call). */
function cookieHeaderFrom(setCookies: Headers): string {
  return setCookies
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

function apiCode(err: unknown): string | undefined {
  if (err instanceof APIError) return (err.body as { code?: string } | undefined)?.code;
  return undefined;
}

/** Count each check; the longest refusal wins (every rule is counted). */
async function limit(deps: Pick<Deps, "db" | "config" | "clock">, checks: Array<[RateRule, string]>) {
  const limiter = rateLimits(deps.config, deps.db);
  let worst = 0;
  for (const [rule, subject] of checks) {
    const r = await limiter.hit(rule, subject, deps.clock());
    if (!r.ok) worst = Math.max(worst, r.retryAfterMinutes);
  }
  if (worst > 0) throw new AccountError("rateLimited", { count: worst });
}

function checkPassword(password: string) {
  const problem = passwordProblem(password);
  if (problem) throw new AccountError(`password.${problem}`);
}

export function normalEmail(email: string) {
  return email.trim().toLowerCase();
}

/** What the sign-in and registration pages offer: social providers, the captcha kind. */
export function signInOptions(deps: Pick<Deps, "config">): {
  providers: SocialProvider[];
  captcha: CaptchaKind;
  siteKey: string | undefined;
} {
  return {
    providers: enabledProviders(deps.config),
    captcha: deps.config.captcha === "recaptcha" ? "recaptcha" : "altcha",
    siteKey: deps.config.captcha === "recaptcha" ? deps.config.recaptcha.siteKey : undefined,
  };
}

export async function signInWithPassword(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock" | "captcha">,
  input: {
    email: string;
    password: string;
    rememberMe: boolean;
    ip: string;
    /** The solved captcha, needed once this IP has failed too often for this account. */
    captcha?: string | undefined;
    /** A social provider to link once the password is proven (spec's error catalogue). */
    linkProvider?: SocialProvider | undefined;
    /** The browser's User-Agent: the new session keeps it, to name the device on /account. */
    userAgent?: string | null | undefined;
  },
): Promise<SignedIn> {
  const email = normalEmail(input.email);
  const limiter = rateLimits(deps.config, deps.db);
  const accountIp = `${email}|${input.ip}`;
  // Only failures count, but every attempt is counted before its password is checked and
  // a success gives its count back (decision 029): read first, count after, and 60 attempts
  // at once all passed the read. The per-IP limit stops one address trying many accounts;
  // the per-account-and-IP lock asks that address for a captcha, so a stranger elsewhere
  // cannot lock the owner out.
  const ipHit = await limiter.hit(ACCOUNT_LIMITS.signInIp, input.ip, deps.clock());
  if (!ipHit.ok) throw new AccountError("rateLimited", { count: ipHit.retryAfterMinutes });
  const lock = await limiter.hit(ACCOUNT_LIMITS.signInAccountIp, accountIp, deps.clock());
  if (!lock.ok) {
    // Past the lock each password check needs a captcha of its own (accepted once). An
    // attempt refused here checked no password: it gives its per-IP count back.
    const solved = input.captcha ? await deps.captcha.verify(input.captcha, input.ip, deps.clock()) : undefined;
    if (!solved?.ok) {
      await limiter.undo(ACCOUNT_LIMITS.signInIp, input.ip, ipHit);
      throw new AccountError(solved ? "captchaFailed" : "captchaRequired", { minutes: lock.retryAfterMinutes });
    }
  }
  let res;
  try {
    res = await deps.auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: input.rememberMe },
      headers: browserHeaders(input.userAgent),
      returnHeaders: true,
    });
  } catch (err) {
    // One message for unknown email, wrong password and social-only accounts; the counts stay.
    if (err instanceof APIError && err.statusCode < 500) throw new AccountError("invalidCredentials");
    throw err;
  }
  await limiter.undo(ACCOUNT_LIMITS.signInIp, input.ip, ipHit);
  await limiter.reset(ACCOUNT_LIMITS.signInAccountIp, accountIp);
  const cookies = cookiesOf(res.headers);
  if (input.linkProvider && enabledProviders(deps.config).includes(input.linkProvider)) {
    const link = await deps.auth.api.linkSocialAccount({
      body: { provider: input.linkProvider, callbackURL: `/user/social?provider=${input.linkProvider}` },
      headers: new Headers({ cookie: cookieHeaderFrom(cookies) }),
      returnHeaders: true,
    });
    return { headers: cookiesOf(res.headers, link.headers), redirectTo: link.response.url };
  }
  return { headers: cookies };
}

export async function registerWithPassword(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  input: {
    name: string;
    email: string;
    password: string;
    language: Lang;
    ip: string;
    /** The page to come back to from the verification link (a local path, checked here). */
    returnTo?: string | null;
    /** The browser's User-Agent, kept with the new session (as at sign-in). */
    userAgent?: string | null | undefined;
  },
): Promise<SignedIn> {
  checkPassword(input.password);
  await limit(deps, [[ACCOUNT_LIMITS.signUpIp, input.ip]]);
  const email = normalEmail(input.email);
  let res;
  try {
    res = await deps.auth.api.signUpEmail({
      body: { name: input.name.trim(), email, password: input.password, language: input.language },
      headers: browserHeaders(input.userAgent),
      returnHeaders: true,
    });
  } catch (err) {
    const c = apiCode(err);
    if (c === "USER_ALREADY_EXISTS" || c === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
      throw new AccountError("emailTaken");
    }
    if (c === "INVALID_EMAIL") throw new AccountError("invalidEmail");
    if (c === "PASSWORD_TOO_SHORT") throw new AccountError("password.tooShort");
    if (c === "PASSWORD_TOO_LONG") throw new AccountError("password.tooLong");
    throw err;
  }
  const cookies = cookiesOf(res.headers);
  // The new account is signed in at once (spec) and proves its address with the mailed link.
  // The mailed link comes back to the page that sent the visitor to register (an invite).
  const next = localReturnPath(input.returnTo);
  await deps.auth.api.sendVerificationEmail({
    body: next ? { email, callbackURL: next } : { email },
    headers: new Headers({ cookie: cookieHeaderFrom(cookies) }),
  });
  return { headers: cookies };
}

/** Always the same answer whether or not the email has an account (no enumeration). */
export async function requestPasswordReset(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  input: { email: string; ip: string },
): Promise<void> {
  const email = normalEmail(input.email);
  await limit(deps, [
    [ACCOUNT_LIMITS.resetIp, input.ip],
    [ACCOUNT_LIMITS.resetAccount, email],
  ]);
  await deps.auth.api.requestPasswordReset({ body: { email } });
}

export async function resetPassword(deps: Pick<Deps, "auth">, input: { token: string; password: string }) {
  checkPassword(input.password);
  try {
    await deps.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } });
  } catch (err) {
    if (apiCode(err) === "INVALID_TOKEN") throw new AccountError("invalidResetLink");
    throw err;
  }
}

/** Ends the session in the database; answers the cookies that expire it. */
export async function signOut(deps: Pick<Deps, "auth">, requestHeaders: Headers): Promise<Headers> {
  try {
    const res = await deps.auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
    return cookiesOf(res.headers);
  } catch (err) {
    // No session (already signed out): nothing to end.
    if (err instanceof APIError && err.statusCode < 500) return new Headers();
    throw err;
  }
}

/**
 * Start a social sign-in: the provider's authorization URL and the state cookies. New
 * users land on /dashboard; existing ones on /user/social, which tells them about
 * linking or 'You have already registered'.
 */
export async function startSocialSignIn(
  deps: Pick<Deps, "config" | "auth">,
  input: { provider: string; from: "login" | "register"; requestHeaders: Headers },
): Promise<SignedIn & { redirectTo: string }> {
  if (!isSocialProvider(input.provider)) throw new AccountError("unsupportedProvider");
  if (!enabledProviders(deps.config).includes(input.provider)) throw new AccountError("providerNotConfigured");
  const back = input.from === "register" ? "/user/register" : "/login";
  const res = await deps.auth.api.signInSocial({
    body: {
      provider: input.provider,
      callbackURL: `/user/social?provider=${input.provider}&from=${input.from}`,
      newUserCallbackURL: "/dashboard",
      errorCallbackURL: `${back}?provider=${input.provider}`,
      disableRedirect: true,
    },
    headers: input.requestHeaders,
    returnHeaders: true,
  });
  if (!res.response.url) throw new Error("social sign-in returned no URL");
  return { headers: cookiesOf(res.headers), redirectTo: res.response.url };
}

/** What to tell a user who came back from a social provider (see startSocialSignIn). */
export async function socialReturnNotice(
  deps: Pick<Deps, "auth" | "clock">,
  input: { requestHeaders: Headers; provider: SocialProvider; from: "login" | "register" | null },
): Promise<"linked" | "alreadyRegistered" | null> {
  const accounts = await deps.auth.api.listUserAccounts({ headers: input.requestHeaders });
  const mine = accounts.find((a) => a.providerId === input.provider);
  if (mine) {
    const created = new Date(mine.createdAt).getTime();
    const others = accounts.filter((a) => a.providerId !== input.provider && new Date(a.createdAt).getTime() < created);
    // Linked just now: the account is new and the user had another way to sign in.
    if (others.length > 0 && deps.clock() - created < 10 * MIN) return "linked";
  }
  return input.from === "register" ? "alreadyRegistered" : null;
}

/** The user's chosen language, used for their mails. */
export async function saveUserLanguage(deps: Pick<Deps, "db">, userId: string, lang: Lang): Promise<void> {
  await setUserLanguage(deps.db, userId, lang);
}

/**
 * Admin rights (decision 012): only for a verified email, and bound to the user id at the
 * first verified sign-in, so a later holder of the address gets nothing. A grant from
 * ADMIN_EMAILS holds while the setting still lists its email.
 */
export async function isAdminUser(
  deps: Pick<Deps, "db" | "config" | "clock">,
  user: { id: string; email: string; emailVerified: boolean },
): Promise<boolean> {
  if (!user.emailVerified) return false;
  const email = normalEmail(user.email);
  const listed = (e: string) => deps.config.adminEmails.includes(e);
  const boundToMe = (grants: AdminGrant[]) =>
    grants.some((g) => g.userId === user.id && (g.source === "grant" || listed(g.email)));
  const grants = await adminGrantsFor(deps.db, user.id, email);
  if (boundToMe(grants)) return true;
  const forEmail = grants.find((g) => g.email === email);
  // Bound to someone else: the address changed hands after the grant was bound.
  if (forEmail && forEmail.userId !== null) return false;
  if (forEmail) await bindAdminGrant(deps.db, email, user.id);
  else if (listed(email))
    await insertBoundAdminGrant(deps.db, { email, userId: user.id, source: "config" }, deps.clock());
  else return false;
  // Read again: a concurrent request of the same user (root and page loaders run side by
  // side) may have bound it first, and that counts as well.
  return boundToMe(await adminGrantsFor(deps.db, user.id, email));
}

/** The link in the verification mail: marks that user's email verified. */
export async function verifyEmailToken(deps: Pick<Deps, "auth">, token: string): Promise<void> {
  try {
    const res = (await deps.auth.api.verifyEmail({ query: { token } })) as {
      user?: { id: string; emailVerified?: boolean } | null;
    } | null;
    // An email change (decision 017) answers the user: opening the link at the new address
    // proves it, even when the old one had never been verified.
    if (res?.user && res.user.emailVerified !== true) {
      const ctx = await deps.auth.$context;
      await ctx.internalAdapter.updateUser(res.user.id, { emailVerified: true });
    }
  } catch (err) {
    if (err instanceof APIError && err.statusCode < 500) throw new AccountError("invalidVerifyLink");
    throw err;
  }
}

/** Another verification mail for a signed-in user whose email is not verified yet. */
export async function resendVerificationMail(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  user: { id: string; email: string; emailVerified: boolean },
  returnTo: string | null = null,
): Promise<void> {
  if (user.emailVerified) return;
  await limit(deps, [[ACCOUNT_LIMITS.verifyResend, user.id]]);
  const next = localReturnPath(returnTo);
  const email = normalEmail(user.email);
  await deps.auth.api.sendVerificationEmail({ body: next ? { email, callbackURL: next } : { email } });
}
