/**
 * An organisation's API keys (decision 054): what the page's forms take. Messages are
 * translation keys (api.json).
 */
import { z } from "zod";

export const API_KEY_SCOPES = ["read", "read-write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const API_KEY_NAME_MAX = 80;
/** Live keys an organisation may hold at once. */
export const API_KEYS_MAX = 20;
/** The shape of a key: `hit_` and 32 random bytes in base64url (43 characters). */
export const API_KEY_PATTERN = /^hit_[A-Za-z0-9_-]{43}$/;

export const apiKeySchema = z.object({
  name: z.string().trim().min(1, "api.keys.errors.nameRequired").max(API_KEY_NAME_MAX, "api.keys.errors.nameTooLong"),
  scope: z.enum(API_KEY_SCOPES, "api.keys.errors.scope"),
});

export const revokeApiKeySchema = z.object({ keyId: z.string().min(1).max(64) });
