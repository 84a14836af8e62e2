import type { Kysely } from "kysely";

/**
 * Organisations (docs/decisions/022-organisations.md). Frozen once landed;
 * the CSV import/export codes against these names.
 *
 * - `organisations`: a company account. orgNumber is the Swedish organisationsnummer in
 *   its canonical form NNNNNN-NNNN (Luhn-checked by the service); deskContact is the text a
 *   finder sees on the page of an organisation item (its lost-and-found desk).
 * - `organisation_members`: one row per member, role 'admin' | 'member'. Removed with the
 *   organisation or the user.
 * - `organisation_invites`: an emailed invite. Only the SHA-256 of its token is stored (the
 *   token is only in the mail); valid until expiresAt (createdAt + 7 days) and once
 *   (acceptedAt/acceptedBy set on acceptance).
 * - products.organisationId: the organisation an item belongs to (null = a personal item).
 *   products.assignedTo: the member (user id) an organisation item is assigned to, or null.
 *   No foreign keys on these two: removing a member or deleting an account sets assignedTo
 *   to null in the service, and SQLite cannot drop a column that carries one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("organisations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("orgNumber", "text", (c) => c.notNull())
    .addColumn("billingEmail", "text", (c) => c.notNull())
    .addColumn("invoiceStreet", "text", (c) => c.notNull())
    .addColumn("invoicePostcode", "text", (c) => c.notNull())
    .addColumn("invoiceCity", "text", (c) => c.notNull())
    // ISO 3166-1 alpha-2.
    .addColumn("invoiceCountry", "text", (c) => c.notNull().defaultTo("SE"))
    .addColumn("vatNumber", "text")
    .addColumn("deskContact", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("updatedAt", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("organisation_members")
    .addColumn("organisationId", "text", (c) => c.notNull().references("organisations.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // 'admin' | 'member'
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("organisation_members_pk", ["organisationId", "userId"])
    .execute();
  await db.schema.createIndex("organisation_members_user_idx").on("organisation_members").column("userId").execute();

  await db.schema
    .createTable("organisation_invites")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organisationId", "text", (c) => c.notNull().references("organisations.id").onDelete("cascade"))
    // Lower case.
    .addColumn("email", "text", (c) => c.notNull())
    // 'admin' | 'member'
    .addColumn("role", "text", (c) => c.notNull())
    // SHA-256 (hex) of the token mailed in the invite link.
    .addColumn("tokenHash", "text", (c) => c.notNull().unique())
    .addColumn("invitedBy", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .addColumn("acceptedAt", "bigint")
    .addColumn("acceptedBy", "text")
    .execute();
  await db.schema
    .createIndex("organisation_invites_org_idx")
    .on("organisation_invites")
    .columns(["organisationId", "createdAt"])
    .execute();

  await db.schema.alterTable("products").addColumn("organisationId", "text").execute();
  await db.schema.alterTable("products").addColumn("assignedTo", "text").execute();
  await db.schema
    .createIndex("products_organisation_idx")
    .on("products")
    .columns(["organisationId", "createdAt"])
    .execute();
  await db.schema.createIndex("products_assigned_idx").on("products").column("assignedTo").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_assigned_idx").execute();
  await db.schema.dropIndex("products_organisation_idx").execute();
  await db.schema.alterTable("products").dropColumn("assignedTo").execute();
  await db.schema.alterTable("products").dropColumn("organisationId").execute();
  await db.schema.dropTable("organisation_invites").execute();
  await db.schema.dropTable("organisation_members").execute();
  await db.schema.dropTable("organisations").execute();
}
