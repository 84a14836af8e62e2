/**
 * Migrations 0048 and 0049 (decision 046) on a database that already holds trusted contacts:
 * a contact invited by mail confirmed only the address, so the number the owner typed beside
 * it is no longer texted; a contact reached only by SMS keeps its confirmed number; a
 * contact who had stopped is on the suppression list, every address and number they had, by
 * the same fingerprint the app computes. Down removes both again.
 */
import { type Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, expect, it } from "vitest";
import { parseDatabaseConfig } from "../../app/server/config.server";
import { migrateToLatest, openDatabase } from "../../app/server/db/db.server";
import { migrations } from "../../app/server/db/migrations";
import { addressHash } from "../../app/server/recipients/recipients.repository.server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { rowOf } from "../support/migration-rows";

let db: TestDatabase | undefined;
afterAll(async () => {
  await db?.drop();
});

const BEFORE = "0047-scans-without-foreign-key";

it("0048 keeps only the confirmed channel of existing contacts, 0049 suppresses those who had stopped; down undoes both", async () => {
  db = await createTestDatabase("m0049", { empty: true });
  const handle = openDatabase(parseDatabaseConfig({ DATABASE_URL: db.url }));
  const k = handle.db as Kysely<any>;
  try {
    const migrator = new Migrator({
      db: k,
      provider: { getMigrations: async () => migrations },
      migrationTableName: "kysely_migration",
      migrationLockTableName: "kysely_migration_lock",
      allowUnorderedMigrations: true,
    });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const now = Date.UTC(2026, 10, 1);
    await k
      .insertInto("user")
      .values(await rowOf(k, db.dialect, "user", { id: "u1", email: "owner@example.test" }))
      .execute();
    const contact = (
      id: string,
      email: string | null,
      phone: string | null,
      confirmedAt: number | null,
      stoppedAt: number | null,
    ) => ({
      id,
      userId: "u1",
      name: id,
      email,
      phone,
      language: "en",
      confirmTokenHash: null,
      confirmSentAt: now,
      confirmedAt,
      stoppedAt,
      createdAt: now,
    });
    await k
      .insertInto("trusted_contacts")
      .values([
        // The review's attack: confirmed from the owner's mailbox, a stranger's number beside it.
        contact("both", "mine@example.test", "+46701111111", now, null),
        contact("sms-only", null, "+46702222222", now, null),
        contact("pending", "p@example.test", "+46703333333", null, null),
        contact("stopped", "Gone@Example.test", "+46704444444", now, now + 1),
      ])
      .execute();

    await migrateToLatest(k);

    const rows = await k
      .selectFrom("trusted_contacts")
      .select(["id", "emailConfirmedAt", "phoneConfirmedAt"])
      .orderBy("id")
      .execute();
    const at = (v: unknown) => (v === null ? null : Number(v));
    expect(rows.map((r) => [r.id, at(r.emailConfirmedAt), at(r.phoneConfirmedAt)])).toEqual([
      ["both", now, null],
      ["pending", null, null],
      ["sms-only", null, now],
      ["stopped", now, null],
    ]);
    const suppressed = await k.selectFrom("recipient_suppressions").select(["addressHash", "channel"]).execute();
    expect(suppressed.map((s) => s.addressHash).sort()).toEqual(
      [addressHash("email", "gone@example.test"), addressHash("sms", "+46704444444")].sort(),
    );

    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const columns = Object.keys(await k.selectFrom("trusted_contacts").selectAll().executeTakeFirstOrThrow());
    expect(columns).not.toContain("phoneConfirmedAt");
    await expect(k.selectFrom("recipient_suppressions").selectAll().execute()).rejects.toThrow();
  } finally {
    await handle.close();
  }
});
