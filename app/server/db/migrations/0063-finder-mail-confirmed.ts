import type { Kysely } from "kysely";

/**
 * A finder's typed address confirms itself (decision 058): `conversations.finderConfirmedAt`
 * is set when the private link from the first mail — the only mail an unconfirmed address
 * gets — is opened with its confirmation code. The owner's replies are mailed only once it
 * is set. Conversations from before have none: their finders read replies at the link
 * until they open it from that mail. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").addColumn("finderConfirmedAt", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").dropColumn("finderConfirmedAt").execute();
}
