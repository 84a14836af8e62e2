/** Browser-safe facts about social sign-in, shared by pages and the auth server (zod-free, decision 045). */

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
