import { betterAuth, type BetterAuthPlugin } from "better-auth";
import { getOAuthState, getSessionFromCtx } from "better-auth/api";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins";
import * as cookie from "cookie";
import { LANG_COOKIE, pickLanguage } from "~/i18n/config";
import { isSocialProvider, PASSWORD_LINK_REQUIRED, SOCIAL_PROVIDERS, type SocialProvider } from "~/lib/social";
import type { Config } from "../config.server";
import type { DatabaseHandle } from "../db/db.server";
import { sendPasswordResetMail } from "./accounts.mail.server";
import { hasPassword } from "./accounts.repository.server";

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
 * The better-auth instance. Sessions live in our database (table session), cookies
 * are HttpOnly. Built once per process by the runtime.
 */
export function createAuth(config: Config, handle: DatabaseHandle) {
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
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60 },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const u = user as typeof user & { language?: string | null };
        await sendPasswordResetMail(db, config, { email: u.email, name: u.name, language: u.language, token });
      },
    },
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
        // Google, Facebook and Twitter vouch for the email; linking stays limited to the
        // same email (allowDifferentEmails is off).
        trustedProviders: [...SOCIAL_PROVIDERS],
        // Password users never verify their email here; the rule below decides instead.
        requireLocalEmailVerified: false,
      },
    },
    user: {
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
      },
    },
    // Our own limiter (app_rate_limits) guards the form actions; better-auth's endpoints
    // for password sign-in/up/reset are not reachable over HTTP (server/app.ts).
    rateLimit: { enabled: false },
    plugins,
    advanced: {
      useSecureCookies: config.baseUrl.protocol === "https:",
      cookiePrefix: "hittad",
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
