/** Where an admin grant comes from: `npm run admin:grant`, or the ADMIN_EMAILS setting. */
export const ADMIN_GRANT_SOURCES = ["grant", "config"] as const;
export type AdminGrantSource = (typeof ADMIN_GRANT_SOURCES)[number];

export function toAdminGrantSource(v: string): AdminGrantSource {
  return v === "config" ? "config" : "grant";
}
