import type { Kysely } from "kysely";

/**
 * The desk's trusted contacts ("Organisations: the desk may have
 * trusted contacts too"; decision 040): `trusted_contacts.organisationId` set means the
 * contact belongs to that organisation's lost-and-found desk (its unassigned items), named
 * by an admin (`userId`, who stays accountable for having named them). They go with the
 * organisation. Null: an account's own contact, as before. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("trusted_contacts")
    .addColumn("organisationId", "text", (c) => c.references("organisations.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("trusted_contacts_organisation_idx")
    .on("trusted_contacts")
    .column("organisationId")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("trusted_contacts_organisation_idx").execute();
  await db.schema.alterTable("trusted_contacts").dropColumn("organisationId").execute();
}
