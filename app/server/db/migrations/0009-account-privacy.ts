import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Decision 017. (1) products.active: the owner can deactivate an item; its finder page then
 * says "This sticker is not active" and shows no contact info (1 = active, the default).
 * (2) The placeholder user that anonymised orders and sticker shipments point to once their
 * owner deleted the account (docs/decisions/017-account-self-service.md). Orders
 * must stay for the books, and their userId column references user.id with ON DELETE
 * CASCADE: moving them to this row keeps them without anything of the person. It has no
 * sign-in method, and its address is in the reserved .invalid domain, so nobody can sign
 * in as it or receive its mail. Frozen once landed.
 */
export const ANONYMOUS_USER_ID = "deleted-user";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("products")
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const now = new Date();
  await db
    .insertInto("user")
    .values({
      id: ANONYMOUS_USER_ID,
      name: "",
      email: "deleted-user@hittad.invalid",
      emailVerified: pg ? false : 0,
      image: null,
      createdAt: pg ? now : now.toISOString(),
      updatedAt: pg ? now : now.toISOString(),
      language: null,
      adress: null,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("user").where("id", "=", ANONYMOUS_USER_ID).execute();
  await db.schema.alterTable("products").dropColumn("active").execute();
}
