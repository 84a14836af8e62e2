/** The spec's consent cookie; its presence means the visitor accepted cookies. */
export const CONSENT_COOKIE = "ConsentApproved";
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
