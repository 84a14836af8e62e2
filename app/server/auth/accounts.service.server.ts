/**
 * Account rules behind the sign-in, registration, reset and logout forms. Calls
 * better-auth's server API (no client library in the browser) and hands back the
 * Set-Cookie headers for the route to forward. Errors come back as translation keys.
 */
import { APIError } from "better-auth/api";
import type { Lang } from "~/i18n/config";
import { passwordProblem } from "~/lib/password";
import { getRuntime } from "../runtime.server";
import { setUserLanguage } from "./accounts.repository.server";
import { enabledProviders, isSocialProvider, type SocialProvider } from "./auth.server";
import { hitRateLimits, RULES } from "./rate-limit.server";

export type Outcome =
  | { ok: true; headers: Headers; redirectTo?: string }
  | { ok: false; status: number; error: string; params?: Record<string, string | number> };

/** Only the Set-Cookie headers of a better-auth response, ready for a redirect. */
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

function code(err: unknown): string | undefined {
  if (err instanceof APIError) return (err.body as { code?: string } | undefined)?.code;
  return undefined;
}

function rateLimited(minutes: number): Outcome {
  return { ok: false, status: 429, error: "auth.errors.rateLimited", params: { minutes } };
}

export async function signInWithPassword(input: {
  email: string;
  password: string;
  rememberMe: boolean;
  ip: string;
  /** A social provider to link once the password is proven (spec's error catalogue). */
  linkProvider?: SocialProvider;
}): Promise<Outcome> {
  const { auth, config, database } = await getRuntime();
  const email = input.email.trim().toLowerCase();
  const limit = await hitRateLimits(
    database.db,
    [
      [RULES.signInIp, input.ip],
      [RULES.signInAccount, email],
    ],
    config.rateLimitDisabled,
  );
  if (!limit.ok) return rateLimited(limit.retryAfterMinutes);
  let res;
  try {
    res = await auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: input.rememberMe },
      returnHeaders: true,
    });
  } catch (err) {
    // One message for unknown email, wrong password and social-only accounts.
    if (err instanceof APIError && err.statusCode < 500) {
      return { ok: false, status: 401, error: "auth.errors.invalidCredentials" };
    }
    throw err;
  }
  const cookies = cookiesOf(res.headers);
  if (input.linkProvider && enabledProviders(config).includes(input.linkProvider)) {
    const link = await auth.api.linkSocialAccount({
      body: { provider: input.linkProvider, callbackURL: `/user/social?provider=${input.linkProvider}` },
      headers: new Headers({ cookie: cookieHeaderFrom(cookies) }),
      returnHeaders: true,
    });
    return { ok: true, headers: cookiesOf(res.headers, link.headers), redirectTo: link.response.url };
  }
  return { ok: true, headers: cookies };
}

export async function registerWithPassword(input: {
  name: string;
  email: string;
  password: string;
  language: Lang;
  ip: string;
}): Promise<Outcome> {
  const { auth, config, database } = await getRuntime();
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, status: 400, error: `auth.password.${problem}` };
  const limit = await hitRateLimits(database.db, [[RULES.signUpIp, input.ip]], config.rateLimitDisabled);
  if (!limit.ok) return rateLimited(limit.retryAfterMinutes);
  try {
    const res = await auth.api.signUpEmail({
      body: {
        name: input.name.trim(),
        email: input.email.trim().toLowerCase(),
        password: input.password,
        language: input.language,
      },
      returnHeaders: true,
    });
    return { ok: true, headers: cookiesOf(res.headers) };
  } catch (err) {
    const c = code(err);
    if (c === "USER_ALREADY_EXISTS" || c === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
      return { ok: false, status: 409, error: "auth.errors.emailTaken" };
    }
    if (c === "INVALID_EMAIL") return { ok: false, status: 400, error: "auth.errors.invalidEmail" };
    if (c === "PASSWORD_TOO_SHORT") return { ok: false, status: 400, error: "auth.password.tooShort" };
    if (c === "PASSWORD_TOO_LONG") return { ok: false, status: 400, error: "auth.password.tooLong" };
    throw err;
  }
}

/** Always the same answer whether or not the email has an account (no enumeration). */
export async function requestPasswordReset(input: { email: string; ip: string }): Promise<Outcome> {
  const { auth, config, database } = await getRuntime();
  const email = input.email.trim().toLowerCase();
  const limit = await hitRateLimits(
    database.db,
    [
      [RULES.resetIp, input.ip],
      [RULES.resetAccount, email],
    ],
    config.rateLimitDisabled,
  );
  if (!limit.ok) return rateLimited(limit.retryAfterMinutes);
  await auth.api.requestPasswordReset({ body: { email } });
  return { ok: true, headers: new Headers() };
}

export async function resetPassword(input: { token: string; password: string }): Promise<Outcome> {
  const { auth } = await getRuntime();
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, status: 400, error: `auth.password.${problem}` };
  try {
    await auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } });
    return { ok: true, headers: new Headers() };
  } catch (err) {
    if (code(err) === "INVALID_TOKEN") return { ok: false, status: 400, error: "auth.errors.invalidResetLink" };
    throw err;
  }
}

/** Ends the session in the database and expires the cookies. */
export async function signOut(request: Request): Promise<Headers> {
  const { auth } = await getRuntime();
  try {
    const res = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return cookiesOf(res.headers);
  } catch (err) {
    // No session (already signed out): nothing to end.
    if (err instanceof APIError && err.statusCode < 500) return new Headers();
    throw err;
  }
}

/**
 * Start a social sign-in: returns the provider's authorization URL and the state
 * cookies. New users land on /dashboard; existing ones on /user/social, which tells
 * them about linking or 'You have already registered'.
 */
export async function startSocialSignIn(input: {
  provider: string;
  from: "login" | "register";
  request: Request;
}): Promise<Outcome> {
  const { auth, config } = await getRuntime();
  if (!isSocialProvider(input.provider)) return { ok: false, status: 400, error: "auth.errors.unsupportedProvider" };
  if (!enabledProviders(config).includes(input.provider)) {
    return { ok: false, status: 400, error: "auth.errors.providerNotConfigured" };
  }
  const back = input.from === "register" ? "/user/register" : "/login";
  const res = await auth.api.signInSocial({
    body: {
      provider: input.provider,
      callbackURL: `/user/social?provider=${input.provider}&from=${input.from}`,
      newUserCallbackURL: "/dashboard",
      errorCallbackURL: `${back}?provider=${input.provider}`,
      disableRedirect: true,
    },
    headers: input.request.headers,
    returnHeaders: true,
  });
  if (!res.response.url) throw new Error("social sign-in returned no URL");
  return { ok: true, headers: cookiesOf(res.headers), redirectTo: res.response.url };
}

/** What to tell a user who came back from a social provider (see startSocialSignIn). */
export async function socialReturnNotice(
  request: Request,
  provider: string,
  from: string | null,
): Promise<"linked" | "alreadyRegistered" | null> {
  const { auth } = await getRuntime();
  const accounts = await auth.api.listUserAccounts({ headers: request.headers });
  const mine = accounts.find((a) => a.providerId === provider);
  if (mine) {
    const created = new Date(mine.createdAt).getTime();
    const others = accounts.filter((a) => a.providerId !== provider && new Date(a.createdAt).getTime() < created);
    // Linked just now: the account is new and the user had another way to sign in.
    if (others.length > 0 && Date.now() - created < 10 * 60_000) return "linked";
  }
  return from === "register" ? "alreadyRegistered" : null;
}

/** The user's chosen language, used for their mails. */
export async function saveUserLanguage(userId: string, lang: Lang): Promise<void> {
  const { database } = await getRuntime();
  await setUserLanguage(database.db, userId, lang);
}
