/**
 * Account self-service (decision 017): profile and language, email and password changes,
 * linked sign-in methods, sessions, and deleting the account. Everything goes through
 * better-auth's server API with the caller's request headers, so better-auth itself checks
 * the session, the current password and freshness; this module adds our rules (password
 * strength, rate limits, "never the last sign-in method") and maps its answers to codes.
 */
import { APIError } from "better-auth/api";
import { isLang, type Lang } from "~/i18n/config";
import type { DeviceClass } from "~/lib/domain/account";
import { passwordProblem, type PasswordProblem } from "~/lib/domain/password";
import type { SocialProvider } from "~/lib/domain/social";
import { hasPassword, isEmailVerified } from "../auth/accounts.repository.server";
import { enabledProviders, FRESH_SIGN_IN_SECONDS, isSocialProvider } from "../auth/auth.server";
import type { Deps } from "../service-deps.server";
import { OrderError } from "../orders/order-error.server";
import { renewalEndsIfCancelled, type RenewalEnd } from "../orders/renewals.service.server";
import { rateLimits, type RateRule } from "../rate-limit/rate-limit.server";
import { ServiceError } from "../service-error.server";
import { sendAccountDeletedMail } from "./account.mail.server";
import { PrivacyError } from "./privacy.service.server";
import { deletionRefusal, getDeletionPreview } from "./deletion.service.server";
import { sessionDeviceOf } from "./session-device.server";
import { previewConsentRequest } from "../recipients/recipients.service.server";

export type AccountPageErrorCode =
  | "rateLimited"
  | "sameEmail"
  | "wrongPassword"
  | "noPassword"
  | "passwordAlreadySet"
  | `password.${PasswordProblem}`
  | "lastSignInMethod"
  | "notFound"
  | "reauthRequired"
  | "passwordRequired"
  | "providerNotConfigured"
  | "cancelFailed"
  | "lastOrganisationAdmin"
  | "organisationsNotConfirmed"
  | "refundsNotForfeited"
  | "signedOut"
  | "emailUnverified";

export class AccountPageError extends ServiceError<AccountPageErrorCode> {}

const MIN = 60_000;

export const ACCOUNT_PAGE_LIMITS = {
  /** Email change requests per user (each mails an address the user typed). */
  emailChange: { name: "account:email", limit: 5, windowMs: 60 * MIN },
  /** Attempts with the current password (change, delete) per user: no guessing through them. */
  passwordCheck: { name: "account:password", limit: 10, windowMs: 15 * MIN },
} satisfies Record<string, RateRule>;

function apiCode(err: unknown): string | undefined {
  if (err instanceof APIError) return (err.body as { code?: string } | undefined)?.code;
  return undefined;
}

function cookiesOf(...sources: Array<Headers | undefined>): Headers {
  const out = new Headers();
  for (const h of sources) for (const c of h?.getSetCookie() ?? []) out.append("Set-Cookie", c);
  return out;
}

async function limit(deps: Pick<Deps, "db" | "config" | "clock">, rule: RateRule, subject: string) {
  const r = await rateLimits(deps.config, deps.db).hit(rule, subject, deps.clock());
  if (!r.ok) throw new AccountPageError("rateLimited", { count: r.retryAfterMinutes });
}

async function currentSession(deps: Pick<Deps, "auth">, headers: Headers) {
  const s = await deps.auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!s) throw new AccountPageError("signedOut");
  return s;
}

export interface AccountSession {
  id: string;
  current: boolean;
  device: DeviceClass;
  browser: string | null;
  system: string | null;
  createdAt: number;
  lastActiveAt: number;
}

export interface SignInMethod {
  /** better-auth's account row id (the unlink form sends it back). */
  id: string;
  provider: "credential" | SocialProvider | string;
  createdAt: number;
}

export interface AccountPage {
  name: string;
  email: string;
  emailVerified: boolean;
  language: Lang;
  hasPassword: boolean;
  methods: SignInMethod[];
  /** Configured social providers not linked yet. */
  linkable: SocialProvider[];
  sessions: AccountSession[];
  /** The current sign-in is recent enough for deleting without a password. */
  freshSignIn: boolean;
  /** Renewing subscriptions and when each would end if the account were deleted now. */
  renewals: RenewalEnd[];
}

export async function getAccountPage(deps: Deps, headers: Headers): Promise<AccountPage> {
  const { session, user } = await currentSession(deps, headers);
  const ctx = await deps.auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(user.id);
  const now = deps.clock();
  const sessions = (await ctx.internalAdapter.listSessions(user.id))
    .filter((s) => new Date(s.expiresAt).getTime() > now)
    .map((s) => ({
      id: s.id,
      current: s.id === session.id,
      ...sessionDeviceOf(s.userAgent),
      createdAt: new Date(s.createdAt).getTime(),
      lastActiveAt: new Date(s.updatedAt).getTime(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt - a.lastActiveAt);
  const linked = new Set(accounts.map((a) => a.providerId));
  const u = user as typeof user & { language?: string | null };
  return {
    name: user.name ?? "",
    email: user.email,
    emailVerified: user.emailVerified === true,
    language: isLang(u.language) ? u.language : "en",
    hasPassword: accounts.some((a) => a.providerId === "credential"),
    methods: accounts
      .map((a) => ({ id: a.id, provider: a.providerId, createdAt: new Date(a.createdAt).getTime() }))
      .sort((a, b) => a.createdAt - b.createdAt),
    linkable: enabledProviders(deps.config).filter((p) => !linked.has(p)),
    sessions,
    freshSignIn: now - new Date(session.createdAt).getTime() < FRESH_SIGN_IN_SECONDS * 1000,
    renewals: await renewalEndsIfCancelled(deps, user.id),
  };
}

/** Name and language (mails use the language). */
export async function updateProfile(
  deps: Pick<Deps, "auth">,
  headers: Headers,
  input: { name: string; language: Lang },
): Promise<Headers> {
  const res = await deps.auth.api.updateUser({
    body: { name: input.name, language: input.language },
    headers,
    returnHeaders: true,
  });
  return cookiesOf(res.headers);
}

/**
 * Asks for an email change: better-auth mails a link to the new address (the change
 * happens when it is opened) and our mail hook tells the old address. An address that
 * belongs to another account gets the same answer and no mail (no enumeration).
 */
export async function requestEmailChange(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  headers: Headers,
  input: { email: string },
): Promise<void> {
  const { user } = await currentSession(deps, headers);
  const newEmail = input.email.trim().toLowerCase();
  if (newEmail === user.email.toLowerCase()) throw new AccountPageError("sameEmail");
  // The change mails an address the user typed: only an accountable account does that
  // (decision 058). The mail itself passes the consent request's rules (sendEmailChangeMails).
  if (!(await isEmailVerified(deps.db, user.id))) throw new AccountPageError("emailUnverified");
  await limit(deps, ACCOUNT_PAGE_LIMITS.emailChange, user.id);
  // better-auth queues the mail in the background, where a refusal reaches no page: the
  // page says it first (the mail's own check still decides and counts).
  await previewConsentRequest(deps, newEmail, deps.clock());
  await deps.auth.api.changeEmail({ body: { newEmail, callbackURL: "/account" }, headers });
}

function checkNewPassword(password: string) {
  const problem = passwordProblem(password);
  if (problem) throw new AccountPageError(`password.${problem}`);
}

/**
 * Changes the password (the current one is needed) and signs out every other session;
 * this one continues with a new session, whose cookie comes back.
 */
export async function changePassword(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  headers: Headers,
  input: { currentPassword: string; newPassword: string },
): Promise<Headers> {
  const { user } = await currentSession(deps, headers);
  checkNewPassword(input.newPassword);
  await limit(deps, ACCOUNT_PAGE_LIMITS.passwordCheck, user.id);
  try {
    const res = await deps.auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    return cookiesOf(res.headers);
  } catch (err) {
    const code = apiCode(err);
    if (code === "INVALID_PASSWORD") throw new AccountPageError("wrongPassword");
    if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") throw new AccountPageError("noPassword");
    throw err;
  }
}

/** A password for an account that only signs in with a social provider. */
export async function setPassword(
  deps: Pick<Deps, "auth">,
  headers: Headers,
  input: { newPassword: string },
): Promise<void> {
  checkNewPassword(input.newPassword);
  try {
    await deps.auth.api.setPassword({ body: { newPassword: input.newPassword }, headers });
  } catch (err) {
    if (apiCode(err) === "PASSWORD_ALREADY_SET") throw new AccountPageError("passwordAlreadySet");
    throw err;
  }
}

/** Starts linking a social provider: the provider's URL and the state cookies. */
export async function startLink(
  deps: Pick<Deps, "config" | "auth">,
  headers: Headers,
  provider: string,
): Promise<{ headers: Headers; redirectTo: string }> {
  if (!isSocialProvider(provider) || !enabledProviders(deps.config).includes(provider)) {
    throw new AccountPageError("providerNotConfigured");
  }
  const res = await deps.auth.api.linkSocialAccount({
    body: {
      provider,
      callbackURL: `/account?linked=${provider}`,
      errorCallbackURL: `/account?linkFailed=${provider}`,
      disableRedirect: true,
    },
    headers,
    returnHeaders: true,
  });
  return { headers: cookiesOf(res.headers), redirectTo: res.response.url };
}

/**
 * Removes a linked social sign-in. Never the last way to sign in (better-auth refuses
 * that too), never the password here, and only with a recent sign-in.
 */
export async function unlinkMethod(deps: Pick<Deps, "auth">, headers: Headers, accountId: string): Promise<void> {
  const { user } = await currentSession(deps, headers);
  const ctx = await deps.auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(user.id);
  const target = accounts.find((a) => a.id === accountId);
  if (!target || target.providerId === "credential") throw new AccountPageError("notFound");
  if (accounts.length <= 1) throw new AccountPageError("lastSignInMethod");
  try {
    await deps.auth.api.unlinkAccount({ body: { accountId }, headers });
  } catch (err) {
    const code = apiCode(err);
    if (code === "FAILED_TO_UNLINK_LAST_ACCOUNT") throw new AccountPageError("lastSignInMethod");
    if (code === "ACCOUNT_NOT_FOUND") throw new AccountPageError("notFound");
    if (code === "SESSION_NOT_FRESH") throw new AccountPageError("reauthRequired");
    throw err;
  }
}

/** "Sign out of all other devices": every session but this one ends. */
export async function signOutOtherSessions(deps: Pick<Deps, "auth">, headers: Headers): Promise<void> {
  await deps.auth.api.revokeOtherSessions({ headers });
}

/**
 * A fresh social sign-in to confirm deleting an account without a password: the provider
 * must be one the user signs in with; it comes back to /account/delete.
 */
export async function startReauth(
  deps: Pick<Deps, "config" | "auth">,
  headers: Headers,
  provider: string,
): Promise<{ headers: Headers; redirectTo: string }> {
  const { user } = await currentSession(deps, headers);
  if (!isSocialProvider(provider) || !enabledProviders(deps.config).includes(provider)) {
    throw new AccountPageError("providerNotConfigured");
  }
  const ctx = await deps.auth.$context;
  const accounts = await ctx.internalAdapter.findAccounts(user.id);
  if (!accounts.some((a) => a.providerId === provider)) throw new AccountPageError("notFound");
  const res = await deps.auth.api.signInSocial({
    body: {
      provider,
      callbackURL: "/account/delete",
      errorCallbackURL: "/account/delete",
      disableRedirect: true,
    },
    headers,
    returnHeaders: true,
  });
  if (!res.response.url) throw new Error("social sign-in returned no URL");
  return { headers: cookiesOf(res.headers), redirectTo: res.response.url };
}

/**
 * Deletes the account (decision 017). A user with a password gives it; a social-only user
 * needs a sign-in of the last FRESH_SIGN_IN_SECONDS. better-auth checks either, then its
 * beforeDelete hook (auth.server.ts → eraseUserData) stops the subscriptions and erases or
 * anonymises our data, then it deletes the user, sessions and sign-in methods. The
 * confirmation mail goes to the address the account had, in its language.
 */
export async function deleteAccount(
  deps: Pick<Deps, "db" | "config" | "auth" | "clock">,
  headers: Headers,
  input: { password?: string | undefined; forfeitRefunds?: boolean; deleteOrganisations?: boolean },
): Promise<Headers> {
  const { user } = await currentSession(deps, headers);
  const u = user as typeof user & { language?: string | null };
  // Nothing lost by surprise (decision 051): an organisation with members keeps an admin
  // (decision 022); one with none goes only when ticked; a refund still open is given up
  // only when ticked.
  const refusal = deletionRefusal(await getDeletionPreview(deps, user.id), {
    forfeitRefunds: input.forfeitRefunds === true,
    deleteOrganisations: input.deleteOrganisations === true,
  });
  if (refusal) {
    throw new AccountPageError(refusal.code, refusal.organisations ? { organisations: refusal.organisations } : {});
  }
  const withPassword = await hasPassword(deps.db, user.id);
  if (withPassword && !input.password) throw new AccountPageError("passwordRequired");
  if (withPassword) await limit(deps, ACCOUNT_PAGE_LIMITS.passwordCheck, user.id);
  let res;
  try {
    res = await deps.auth.api.deleteUser({
      body: withPassword ? { password: input.password } : {},
      headers,
      returnHeaders: true,
    });
  } catch (err) {
    if (err instanceof OrderError) throw new AccountPageError("cancelFailed");
    if (err instanceof PrivacyError && err.code === "lastOrganisationAdmin") {
      throw new AccountPageError("lastOrganisationAdmin", err.params);
    }
    const code = apiCode(err);
    if (code === "INVALID_PASSWORD") throw new AccountPageError("wrongPassword");
    if (code === "SESSION_EXPIRED") throw new AccountPageError("reauthRequired");
    throw err;
  }
  await sendAccountDeletedMail(deps.db, deps.config, {
    email: user.email,
    name: user.name,
    language: u.language,
    now: deps.clock(),
  });
  return cookiesOf(res.headers);
}
