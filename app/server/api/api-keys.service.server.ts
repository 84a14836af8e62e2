/**
 * An organisation's API keys (decision 054): its admins make them (shown once), list them
 * and revoke them at once. A key is `hit_` and 32 random bytes; only its SHA-256 is kept,
 * and a request's key is found by its hash (the comparison is the database's equality on
 * a hash the caller cannot steer, then a constant-time compare). A key acts with its
 * creator's rights within its organisation only, and only while the creator is an admin of
 * it. No HTTP here (decision 011).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { API_KEY_PATTERN, API_KEYS_MAX, type ApiKeyScope } from "~/lib/domain/api-keys";
import { may } from "~/lib/domain/permissions";
import { findMembership, findOrganisation } from "../organisations/organisations.repository.server";
import type { Deps } from "../service-deps.server";
import { ApiError } from "./api-error.server";
import { tellAdminsOfNewKey } from "./api-keys.mail.server";
import * as repo from "./api-keys.repository.server";

export type { ApiKeyListed, ApiKeyRow } from "./api-keys.repository.server";

/** Keys the page lists (live and revoked), newest first. */
export const API_KEYS_LISTED = 100;

export function newApiKey(): string {
  return `hit_${randomBytes(32).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The organisation, when `userId` may manage its API keys; ApiError notFound otherwise. */
async function requireKeyAdmin(db: Deps["db"], userId: string, organisationId: string) {
  if (organisationId.length > 64) throw new ApiError("notFound");
  const membership = await findMembership(db, organisationId, userId);
  const organisation = may(membership?.role, "organisation", "apiKeys")
    ? await findOrganisation(db, organisationId)
    : undefined;
  if (!organisation) throw new ApiError("notFound");
  return organisation;
}

/** Whether `userId` may manage the organisation's keys (ApiError notFound if not): before a form is read. */
export async function checkApiKeysAdmin(deps: Pick<Deps, "db">, userId: string, organisationId: string) {
  await requireKeyAdmin(deps.db, userId, organisationId);
}

export interface ApiKeysPage {
  organisation: { id: string; name: string };
  keys: repo.ApiKeyListed[];
}

export async function getApiKeysPage(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
): Promise<ApiKeysPage> {
  const organisation = await requireKeyAdmin(deps.db, userId, organisationId);
  const keys = await repo.listApiKeys(deps.db, organisationId, API_KEYS_LISTED);
  return { organisation: { id: organisation.id, name: organisation.name }, keys };
}

/**
 * Makes a key and returns it: the only time it exists outside the caller's hands. The
 * organisation's other admins are mailed in the same transaction (`told`: how many, so the
 * page does not claim a mail to nobody). ApiError key.limit past API_KEYS_MAX live keys.
 */
export async function createApiKey(
  deps: Pick<Deps, "db" | "clock" | "config">,
  creator: { id: string; name: string },
  organisationId: string,
  input: { name: string; scope: ApiKeyScope },
): Promise<{ id: string; key: string; told: number }> {
  const organisation = await requireKeyAdmin(deps.db, creator.id, organisationId);
  const live = (await repo.listApiKeys(deps.db, organisationId, API_KEYS_LISTED)).filter((k) => k.revokedAt === null);
  if (live.length >= API_KEYS_MAX) throw new ApiError("key.limit", { count: API_KEYS_MAX });
  const key = newApiKey();
  const id = randomUUID();
  const now = deps.clock();
  const told = await deps.db.transaction().execute(async (trx) => {
    await repo.insertApiKey(trx, {
      id,
      organisationId,
      name: input.name,
      scope: input.scope,
      hash: hashApiKey(key),
      hint: key.slice(0, 8),
      createdBy: creator.id,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    return tellAdminsOfNewKey(trx, deps.config, {
      organisationId,
      organisationName: organisation.name,
      creator,
      key: input,
      now,
    });
  });
  return { id, key, told };
}

/** Revokes a key at once: its next request is 401. ApiError notFound for a key not live in the organisation. */
export async function revokeApiKey(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  organisationId: string,
  keyId: string,
): Promise<void> {
  await requireKeyAdmin(deps.db, userId, organisationId);
  if (!(await repo.revokeApiKey(deps.db, organisationId, keyId, deps.clock()))) throw new ApiError("notFound");
}

/**
 * The key of a request's `Authorization: Bearer hit_…`: ApiError auth.missing without one,
 * auth.invalid for a key that is unknown, revoked, or whose creator is no longer an admin.
 */
export async function authenticateApiKey(
  deps: Pick<Deps, "db" | "clock">,
  authorization: string | null,
): Promise<repo.ApiKeyRow> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!m) throw new ApiError("auth.missing");
  const token = m[1]!;
  if (!API_KEY_PATTERN.test(token)) throw new ApiError("auth.invalid");
  const hash = hashApiKey(token);
  const row = await repo.findLiveKeyByHash(deps.db, hash);
  if (!row || !timingSafeEqual(Buffer.from(row.hash, "hex"), Buffer.from(hash, "hex"))) {
    throw new ApiError("auth.invalid");
  }
  await repo.touchApiKey(deps.db, row.id, deps.clock());
  const { hash: _hash, ...key } = row;
  return key;
}
