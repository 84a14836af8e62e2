/** Browser-safe facts about social sign-in, shared by pages and the auth server. */
import { z } from "zod";

/** The spec's social providers; any other name is 'Unsupported provider'. */
export const SOCIAL_PROVIDERS = ["google", "facebook", "twitter"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export function isSocialProvider(v: unknown): v is SocialProvider {
  return typeof v === "string" && (SOCIAL_PROVIDERS as readonly string[]).includes(v);
}

/**
 * Error code of a social sign-in for an email that already has a password: the spec's
 * 'Please sign in with your email and password first to link accounts.'
 */
export const PASSWORD_LINK_REQUIRED = "password_link_required";

/** Callback error codes that mean "sign in with your password first, then we link". */
export const LINK_ERRORS: ReadonlySet<string> = new Set([PASSWORD_LINK_REQUIRED, "account_not_linked"]);

/**
 * The one reading of the social sign-in query (?provider=…&error=…&from=…) that the
 * sign-in, registration and social-return pages share. Anything unknown reads as absent.
 */
const socialQuerySchema = z.object({
  provider: z.enum(SOCIAL_PROVIDERS).nullable().catch(null),
  error: z.string().max(100).nullable().catch(null),
  from: z.enum(["login", "register"]).nullable().catch(null),
});

export interface SocialQuery {
  provider: SocialProvider | null;
  /** The provider named in a "sign in with your password first, then we link" return. */
  linkProvider: SocialProvider | null;
  /** The provider named in a failed social sign-in. */
  socialError: SocialProvider | null;
  from: "login" | "register" | null;
}

export function parseSocialQuery(search: URLSearchParams): SocialQuery {
  const q = socialQuerySchema.parse({
    provider: search.get("provider"),
    error: search.get("error"),
    from: search.get("from"),
  });
  const failed = q.provider && q.error ? q.provider : null;
  return {
    provider: q.provider,
    linkProvider: failed && LINK_ERRORS.has(q.error!) ? failed : null,
    socialError: failed && !LINK_ERRORS.has(q.error!) ? failed : null,
    from: q.from,
  };
}

/** The form that starts a social sign-in (intent=social). */
export const socialStartSchema = z.object({
  intent: z.literal("social"),
  provider: z.string().max(40).catch(""),
});
