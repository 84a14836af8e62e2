import { betterAuth, type BetterAuthPlugin } from "better-auth";
import type { Clock } from "../clock.server";
import { getOAuthState, getSessionFromCtx } from "better-auth/api";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins";
import * as cookie from "cookie";
import { LANG_COOKIE, pickLanguage } from "~/i18n/config";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/lib/domain/password";
import { isSocialProvider, PASSWORD_LINK_REQUIRED, SOCIAL_PROVIDERS, type SocialProvider } from "~/lib/domain/social";
import type { Config } from "../config.server";
import type { DatabaseHandle } from "../db/db.server";
import { logger } from "../logger.server";
import {
  returnPathOf,
  sendEmailChangeMails,
  sendPasswordResetMail,
  sendVerificationMail,
} from "./accounts.mail.server";
import { deleteResetTokensOf, findUserEmail, hasPassword } from "./accounts.repository.server";

export { isSocialProvider, PASSWORD_LINK_REQUIRED, SOCIAL_PROVIDERS, type SocialProvider };

/** Which social providers are configured (real credentials or the test OpenID provider). */
export function enabledProviders(config: Config): SocialProvider[] {
  if (config.oauth.testIssuer) return ["google", "facebook"];
  return SOCIAL_PROVIDERS.filter((p) => config.oauth[p]);
}

/**
 * Origins our sign-in forms redirect to. CSP form-action also covers the redirect after
 * a form POST, so each configured provider's authorization origin must be listed.
 */
export function socialFormActionOrigins(config: Config): string[] {
  if (config.oauth.testIssuer) return [new URL(config.oauth.testIssuer).origin];
  const origins: Record<SocialProvider, string> = {
    google: "https://accounts.google.com",
    facebook: "https://www.facebook.com",
    twitter: "https://x.com",
  };
  return enabledProviders(config).map((p) => origins[p]);
}

/** "Remember me": a 30-day session; unchecked, the cookie ends with the browser. */
export const SESSION_DAYS = 30;
/** Reset links work for one hour, once. */
export const RESET_TOKEN_SECONDS = 60 * 60;
/**
 * A sign-in this recent counts as "fresh" (decision 017): deleting an account without a
 * password (social-only) and unlinking a sign-in method need one. better-auth checks it.
 */
export const FRESH_SIGN_IN_SECONDS = 15 * 60;
/** Verification links work for three days. */
export const VERIFY_TOKEN_SECONDS = 3 * 24 * 60 * 60;

/**
 * better-auth's own log lines, as JSON through our logger. Only the message and error
 * messages go out: its extra arguments can carry users, emails or tokens.
 */
function authLog(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]) {
  const errors = args.filter((a): a is Error => a instanceof Error).map((e) => `${e.name}: ${e.message}`);
  logger[level]({ source: "better-auth", ...(errors.length ? { errors } : {}) }, message);
}

/** A user about to be deleted: id and stored (lower-case) email. */
export interface DeletedUser {
  id: string;
  email: string;
  /** Records kept by address are the account's only once it is verified (decision 028). */
  emailVerified: boolean;
}

export interface AuthHooks {
  /**
   * Runs after better-auth checked the password (or the fresh sign-in) and before it
   * deletes the user, sessions and sign-in methods; a throw leaves the account as it was.
   * The runtime wires it to eraseUserData: start-up code imports no feature (decision 031).
   */
  beforeDeleteUser: (user: DeletedUser) => Promise<void>;
  /**
   * Runs after any change of a user whose email is verified (the verification link, an
   * email change, a linked provider): the runtime wires it to the receipts that waited for
   * a verified address (decision 051). It must be cheap when there is nothing to do.
   */
  afterVerifiedUserUpdate: (userId: string) => Promise<void>;
}

/**
 * The better-auth instance. Sessions live in our database (table session), cookies
 * are HttpOnly. Built once per process by the runtime.
 */
/** `clock`: the runtime's (decision 004), the time of the mails it queues. */
export function createAuth(config: Config, handle: DatabaseHandle, hooks: AuthHooks, clock: Clock) {
  const db = handle.db;
  const plugins: BetterAuthPlugin[] = [];
  if (config.oauth.testIssuer) {
    // Tests: a local OpenID provider stands in for Google and Facebook under the same
    // provider ids, so the whole redirect/callback/linking flow is the production one.
    const issuer = config.oauth.testIssuer.replace(/\/$/, "");
    const stand = (providerId: SocialProvider): GenericOAuthConfig => ({
      providerId,
      clientId: `hittad-${providerId}`,
      clientSecret: "hittad-test-secret",
      discoveryUrl: `${issuer}/.well-known/openid-configuration`,
      scopes: ["openid", "email", "profile"],
      pkce: true,
    });
    plugins.push(genericOAuth({ config: [stand("google"), stand("facebook")] }));
  }

  return betterAuth({
    appName: "Hittad",
    baseURL: config.baseUrl.origin,
    basePath: "/api/auth",
    secret: config.authSecret,
    database: { db, type: handle.dialect === "postgres" ? "postgres" : "sqlite" },
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60, freshAge: FRESH_SIGN_IN_SECONDS },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Every other reset link of the user dies with the one used (decision 012).
      onPasswordReset: async ({ user }) => {
        await deleteResetTokensOf(db, String(user.id));
      },
      sendResetPassword: async ({ user, token }) => {
        const u = user as typeof user & { language?: string | null };
        await sendPasswordResetMail(db, config, {
          email: u.email,
          name: u.name,
          language: u.language,
          token,
          now: clock(),
        });
      },
    },
    // Email/password accounts prove their address with a mailed link; registration still
    // signs in at once (spec), but admin rights wait for it (session.server.ts).
    emailVerification: {
      // registerWithPassword asks for the mail itself, once the account exists.
      sendOnSignUp: false,
      expiresIn: VERIFY_TOKEN_SECONDS,
      sendVerificationEmail: async ({ user, token, url }) => {
        const u = user as typeof user & { language?: string | null };
        // better-auth's changeEmail sends its link to the new address as a "verification"
        // of a user whose stored email is still the old one: that is an email change.
        const stored = await findUserEmail(db, String(u.id));
        if (stored && stored.toLowerCase() !== u.email.toLowerCase()) {
          await sendEmailChangeMails(db, config, {
            userId: String(u.id),
            oldEmail: stored,
            newEmail: u.email,
            name: u.name,
            language: u.language,
            token,
            now: clock(),
          });
          return;
        }
        await sendVerificationMail(db, config, {
          email: u.email,
          name: u.name,
          language: u.language,
          token,
          next: returnPathOf(url),
          now: clock(),
        });
      },
    },
    logger: { level: config.logLevel === "debug" ? "debug" : "warn", log: authLog },
    socialProviders: config.oauth.testIssuer
      ? {}
      : {
          ...(config.oauth.google ? { google: { ...config.oauth.google, prompt: "select_account" as const } } : {}),
          ...(config.oauth.facebook ? { facebook: config.oauth.facebook } : {}),
          ...(config.oauth.twitter ? { twitter: config.oauth.twitter } : {}),
        },
    account: {
      accountLinking: {
        enabled: true,
        // No provider is trusted blindly: an existing account is linked automatically only
        // when the provider reports the email as verified; otherwise better-auth answers
        // account_not_linked and the user signs in with the password first (LINK_ERRORS).
        // Linking stays limited to the same email (allowDifferentEmails is off).
        trustedProviders: [],
        // Password accounts may be unverified; the rule below asks them for the password.
        requireLocalEmailVerified: false,
      },
    },
    user: {
      // Decision 017: the new address gets a confirmation link; the change happens when it is
      // opened (no sendChangeEmailConfirmation step to the old address, which is told instead).
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: true,
        // Subscriptions are cancelled at the provider and every other trace erased
        // (hooks.beforeDeleteUser); a failure leaves the account as it was.
        beforeDelete: async (user) => {
          await hooks.beforeDeleteUser({
            id: String(user.id),
            email: user.email.toLowerCase(),
            emailVerified: user.emailVerified === true,
          });
        },
      },
      additionalFields: {
        language: { type: "string", required: false, input: true },
        adress: { type: "string", required: false, input: false },
      },
      /**
       * The spec's error catalogue: a social sign-in for an email that has a password
       * links only after the user has signed in with that password (which starts an
       * explicit link); other existing accounts link at once.
       */
      validateUserInfo: async ({ user, source }, ctx) => {
        if (source.action !== "link-account" || source.method !== "oauth") return;
        const state = await getOAuthState().catch(() => null);
        if (state?.link) return;
        const session = await getSessionFromCtx(ctx).catch(() => null);
        if (session && session.user.id === user.id) return;
        if (await hasPassword(db, String(user.id))) return { error: PASSWORD_LINK_REQUIRED };
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Social registrations get the visitor's current language on their profile.
          before: async (user, ctx) => {
            const u = user as typeof user & { language?: string | null };
            if (u.language === "en" || u.language === "sv") return;
            const headers = ctx?.request?.headers ?? ctx?.headers;
            const lang = pickLanguage(
              cookie.parse(headers?.get("cookie") ?? "")[LANG_COOKIE],
              headers?.get("accept-language"),
            );
            return { data: { ...user, language: lang } };
          },
        },
        update: {
          after: async (user) => {
            if (user.emailVerified === true) await hooks.afterVerifiedUserUpdate(String(user.id));
          },
        },
      },
    },
    // Our own limiter (app_rate_limits) guards the form actions; better-auth's endpoints
    // for password sign-in/up/reset are not reachable over HTTP (server/app.ts).
    rateLimit: { enabled: false },
    plugins,
    advanced: {
      useSecureCookies: config.secureCookies,
      cookiePrefix: "hittad",
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

declare module "../service-deps.server" {
  /** Deps names better-auth's type without importing the auth feature (decision 053). */
  interface ProvidedTypes {
    auth: Auth;
  }
}
