/**
 * The rules of an organisation's API keys (decision 054): a key is `hit_` and 256 random
 * bits, stored only as its hash; only the organisation's admins make, see and revoke keys;
 * a revoked key, or one whose creator is no longer an admin, authenticates nothing; the
 * other admins are mailed when a key is made, never the key itself. Service test on
 * SQLite, and on PostgreSQL with SERVICE_TESTS_ON_POSTGRES=1.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { API_KEYS_MAX } from "~/lib/domain/api-keys";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  createTestOrganisation,
  joinOrganisation,
  signUpOwner,
  type TestOwner,
} from "../../../tests/support/service-fixtures";
import { setMemberRole } from "../organisations/organisations.repository.server";
import { ApiError } from "./api-error.server";
import { authenticateApiKey, createApiKey, getApiKeysPage, hashApiKey, revokeApiKey } from "./api-keys.service.server";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let deps: ServiceTestDeps;
let admin: TestOwner;
let otherAdmin: TestOwner;
let member: TestOwner;
let outsider: TestOwner;
let org: string;
let otherOrg: string;

beforeAll(async () => {
  deps = await createServiceDeps();
  admin = await signUpOwner(deps, { prefix: "keys-admin", address: false, name: "Alva Admin" });
  otherAdmin = await signUpOwner(deps, { prefix: "keys-admin2", address: false, language: "sv" });
  member = await signUpOwner(deps, { prefix: "keys-member", address: false });
  outsider = await signUpOwner(deps, { prefix: "keys-outsider", address: false });
  org = await createTestOrganisation(deps, admin);
  otherOrg = await createTestOrganisation(deps, outsider);
  await joinOrganisation(deps, org, otherAdmin, "admin");
  await joinOrganisation(deps, org, member, "member");
});
afterAll(async () => {
  await deps?.close();
});

async function code(p: Promise<unknown>): Promise<string | null> {
  return p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? e.code : Promise.reject(e)),
  );
}

const bearer = (key: string) => `Bearer ${key}`;

describe("an organisation's API keys", () => {
  it("is hit_ and 32 random bytes, shown once and stored only as its SHA-256", async () => {
    const { id, key } = await createApiKey(deps, admin, org, { name: "Snipe-IT", scope: "read" });
    expect(key).toMatch(/^hit_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), "base64url")).toHaveLength(32);
    const row = await deps.db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(8));
    expect(row.hint).toBe(key.slice(0, 8));
    const again = await createApiKey(deps, admin, org, { name: "Snipe-IT", scope: "read" });
    expect(again.key).not.toBe(key);
  });

  it("authenticates its organisation's requests with the creator's rights and records the use", async () => {
    const { id, key } = await createApiKey(deps, admin, org, { name: "Intranet", scope: "read-write" });
    const found = await authenticateApiKey(deps, bearer(key));
    expect(found).toMatchObject({ id, organisationId: org, createdBy: admin.id, scope: "read-write" });
    const page = await getApiKeysPage(deps, admin.id, org);
    expect(page.keys.find((k) => k.id === id)).toMatchObject({ lastUsedAt: deps.clock(), creatorName: admin.name });
  });

  it("refuses a request without a key, with a made-up key, or with a malformed one", async () => {
    expect(await code(authenticateApiKey(deps, null))).toBe("auth.missing");
    expect(await code(authenticateApiKey(deps, "Basic abc"))).toBe("auth.missing");
    expect(await code(authenticateApiKey(deps, bearer(`hit_${"A".repeat(43)}`)))).toBe("auth.invalid");
    expect(await code(authenticateApiKey(deps, bearer("hit_short")))).toBe("auth.invalid");
  });

  it("stops working at once when revoked, and only its organisation's admins may revoke it", async () => {
    const { id, key } = await createApiKey(deps, admin, org, { name: "Old sync", scope: "read" });
    expect(await code(revokeApiKey(deps, member.id, org, id))).toBe("notFound");
    expect(await code(revokeApiKey(deps, outsider.id, otherOrg, id))).toBe("notFound");
    expect(await code(authenticateApiKey(deps, bearer(key)))).toBeNull();
    await revokeApiKey(deps, otherAdmin.id, org, id);
    expect(await code(authenticateApiKey(deps, bearer(key)))).toBe("auth.invalid");
    expect(await code(revokeApiKey(deps, admin.id, org, id))).toBe("notFound");
    const listed = (await getApiKeysPage(deps, admin.id, org)).keys.find((k) => k.id === id);
    expect(listed?.revokedAt).toBe(deps.clock());
  });

  it("works only while its creator is an admin of the organisation", async () => {
    const { key } = await createApiKey(deps, otherAdmin, org, { name: "Theirs", scope: "read" });
    await setMemberRole(deps.db, org, otherAdmin.id, "member");
    expect(await code(authenticateApiKey(deps, bearer(key)))).toBe("auth.invalid");
    await setMemberRole(deps.db, org, otherAdmin.id, "admin");
    expect(await code(authenticateApiKey(deps, bearer(key)))).toBeNull();
  });

  it("is made, listed and revoked by the organisation's admins only", async () => {
    for (const who of [member, outsider]) {
      expect(await code(createApiKey(deps, who, org, { name: "Mine", scope: "read" }))).toBe("notFound");
      expect(await code(getApiKeysPage(deps, who.id, org))).toBe("notFound");
    }
  });

  it("is told to the other admins by mail, in their language, without the key; the creator learns how many were told", async () => {
    const { key, told } = await createApiKey(deps, admin, org, { name: "Asset register", scope: "read-write" });
    expect(told).toBe(1);
    // The only admin of an organisation tells nobody: the page must not say it mailed anyone.
    expect((await createApiKey(deps, outsider, otherOrg, { name: "Alone", scope: "read" })).told).toBe(0);
    const mails = await deps.db
      .selectFrom("mail_outbox")
      .select(["to", "subject", "text"])
      .where("text", "like", "%Asset register%")
      .execute();
    expect(mails.map((m) => m.to)).toEqual([otherAdmin.email]);
    expect(mails[0]!.subject).toContain("API-nyckel");
    expect(mails[0]!.text).toContain("Asset register");
    expect(mails[0]!.text).toContain(`/organisations/${org}/api`);
    expect(mails[0]!.text).not.toContain(key.slice(4));
  });

  it(`holds at most ${API_KEYS_MAX} live keys per organisation`, async () => {
    const live = (await getApiKeysPage(deps, outsider.id, otherOrg)).keys.length;
    for (let i = live; i < API_KEYS_MAX; i++) {
      await createApiKey(deps, outsider, otherOrg, { name: `Key ${i}`, scope: "read" });
    }
    expect(await code(createApiKey(deps, outsider, otherOrg, { name: "One more", scope: "read" }))).toBe("key.limit");
  });
});
