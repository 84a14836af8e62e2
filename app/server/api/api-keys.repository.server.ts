/**
 * SQL of the organisations' API keys (decision 054): only the key's SHA-256 is stored, and a
 * key is found by it. The same queries on SQLite and PostgreSQL.
 */
import { PERMISSIONS } from "~/lib/domain/permissions";
import type { DB } from "../db/db.server";

import type { ApiKeyScope } from "~/lib/domain/api-keys";

export type { ApiKeyScope };

export interface ApiKeyRow {
  id: string;
  organisationId: string;
  name: string;
  scope: ApiKeyScope;
  hint: string;
  createdBy: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface ApiKeyListed extends ApiKeyRow {
  /** The creator's name (else email); "" once their account is gone. */
  creatorName: string;
}

const n = (v: number | string | null): number | null => (v == null ? null : Number(v));
const scopeOf = (v: string): ApiKeyScope => (v === "read-write" ? "read-write" : "read");

export async function insertApiKey(db: DB, row: ApiKeyRow & { hash: string }): Promise<void> {
  await db.insertInto("api_keys").values(row).execute();
}

/** The organisation's keys, newest first, revoked ones too (the page's history). */
export async function listApiKeys(db: DB, organisationId: string, limit: number): Promise<ApiKeyListed[]> {
  const rows = await db
    .selectFrom("api_keys as k")
    .leftJoin("user as u", "u.id", "k.createdBy")
    .select([
      "k.id",
      "k.organisationId",
      "k.name",
      "k.scope",
      "k.hint",
      "k.createdBy",
      "k.createdAt",
      "k.lastUsedAt",
      "k.revokedAt",
      "u.name as userName",
      "u.email as userEmail",
    ])
    .where("k.organisationId", "=", organisationId)
    .orderBy("k.createdAt", "desc")
    .orderBy("k.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    organisationId: r.organisationId,
    name: r.name,
    scope: scopeOf(r.scope),
    hint: r.hint,
    createdBy: r.createdBy,
    createdAt: Number(r.createdAt),
    lastUsedAt: n(r.lastUsedAt),
    revokedAt: n(r.revokedAt),
    creatorName: r.userName || r.userEmail || "",
  }));
}

/** Revokes one of the organisation's keys now; false when there is no such live key. */
export async function revokeApiKey(db: DB, organisationId: string, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable("api_keys")
    .set({ revokedAt: now })
    .where("id", "=", id)
    .where("organisationId", "=", organisationId)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * The live key with this hash whose creator is still an admin of its organisation (the key
 * acts with their rights, decision 054); undefined for anything else.
 */
export async function findLiveKeyByHash(db: DB, hash: string): Promise<(ApiKeyRow & { hash: string }) | undefined> {
  const row = await db
    .selectFrom("api_keys as k")
    .innerJoin("organisation_members as m", (j) =>
      j.onRef("m.organisationId", "=", "k.organisationId").onRef("m.userId", "=", "k.createdBy"),
    )
    .selectAll("k")
    .where("k.hash", "=", hash)
    .where("k.revokedAt", "is", null)
    // The roles the permission table lets manage keys (decision 060): today the admins.
    .where("m.role", "in", [...PERMISSIONS.organisation.apiKeys])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    scope: scopeOf(row.scope),
    createdAt: Number(row.createdAt),
    lastUsedAt: n(row.lastUsedAt),
    revokedAt: n(row.revokedAt),
  };
}

/** Records a use, at most once a minute per key (one write, not one per request). */
export async function touchApiKey(db: DB, id: string, now: number): Promise<void> {
  await db
    .updateTable("api_keys")
    .set({ lastUsedAt: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<", now - 60_000)]))
    .execute();
}
