import { sql, type Kysely } from "kysely";

/**
 * Data only (docs/decisions/026-organisation-item-access.md): a finder
 * conversation about an organisation item belongs with the item. Since this release a
 * member's departure hands their conversations to the heir with their items; before it,
 * the conversations kept the departed member as `ownerId`, so their account's deletion
 * (the foreign key cascades) would have deleted the organisation's conversations. Each such
 * conversation now names the item's owner (the heir the items already passed to).
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("conversations")
    .set((eb) => ({
      ownerId: eb.selectFrom("products").select("products.owner").whereRef("products.id", "=", "conversations.itemId"),
    }))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("products")
          .select(sql<number>`1`.as("one"))
          .whereRef("products.id", "=", "conversations.itemId")
          .where("products.organisationId", "is not", null)
          .whereRef("products.owner", "!=", "conversations.ownerId")
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom("organisation_members")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("organisation_members.organisationId", "=", "products.organisationId")
                  .whereRef("organisation_members.userId", "=", "conversations.ownerId"),
              ),
            ),
          ),
      ),
    )
    .execute();
}

/** Nothing to undo: the previous owner had left the organisation. */
export async function down(): Promise<void> {}
