/**
 * The relay's browser-safe facts (decision 013), without zod: the finder page and the
 * product form import these, and the finder page must not download a schema library
 * (brief section 4). The schemas are in relay.ts, used by the server actions.
 */
export const CONTACT_VISIBILITIES = ["public", "private"] as const;
/** `public`: the item page shows the owner's contact info (the spec); `private`: relay only. */
export type ContactVisibility = (typeof CONTACT_VISIBILITIES)[number];
export const DEFAULT_VISIBILITY: ContactVisibility = "public";

/** A stored contactVisibility column as a ContactVisibility (anything unknown is private: never leak). */
export function toContactVisibility(v: string | null | undefined): ContactVisibility {
  return v === "public" ? "public" : "private";
}

export const RELAY_MESSAGE_MAX = 2000;
export const FINDER_CONTACT_MAX = 200;
/** The honeypot's field name: people never see it, form-filling bots fill it in. */
export const HONEYPOT_FIELD = "website";

/** The finder's private link: 32 random bytes, base64url (256 bits). */
export const FINDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export function isFinderToken(v: unknown): v is string {
  return typeof v === "string" && FINDER_TOKEN_PATTERN.test(v);
}
/** Conversation ids (randomUUID). */
export function isConversationId(v: unknown): v is string {
  return typeof v === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);
}

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** The spec's location helper: a maps search link built from latitude and longitude. */
export function mapsLink({ latitude, longitude }: Coordinates): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}

export type FinderMessageValues = { message: string; contact: string };
