/** Trusted contacts (decision 033): limits shared by the form and the service. */
export const TRUSTED_CONTACTS_MAX = 3;
export const TRUSTED_NAME_MAX = 60;
export const TRUSTED_EMAIL_MAX = 254;

/** An address mail can be sent to: something@domain.tld, no spaces, not too long. */
export function isPlausibleEmail(v: string): boolean {
  return v.length <= TRUSTED_EMAIL_MAX && /^[^\s@<>"',;:]+@[^\s@<>"',;:]+\.[^\s@<>"',;:]{2,}$/.test(v);
}
