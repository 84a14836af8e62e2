/** Social sign-in's query and form schemas; the browser-safe facts are in ./social-providers. */
import { z } from "zod";

import { LINK_ERRORS, SOCIAL_PROVIDERS, type SocialProvider } from "./social-providers";

export * from "./social-providers";

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
