import type { Kysely } from "kysely";

/**
 * Each channel of a trusted contact confirms on its own (decision 046): `emailConfirmedAt` is set when the mailed link's button is pressed,
 * `phoneConfirmedAt` when the code sent to that number is typed. `confirmedAt` stays "the
 * first channel confirmed". Existing contacts: one invited by mail confirmed the address
 * only (their number never proved anything, so it gets no more SMS until it confirms);
 * one reached only by SMS confirmed the number with its code. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trusted_contacts").addColumn("emailConfirmedAt", "bigint").execute();
  await db.schema.alterTable("trusted_contacts").addColumn("phoneConfirmedAt", "bigint").execute();
  await db
    .updateTable("trusted_contacts")
    .set((eb: any) => ({ emailConfirmedAt: eb.ref("confirmedAt") }))
    .where("confirmedAt", "is not", null)
    .where("email", "is not", null)
    .execute();
  await db
    .updateTable("trusted_contacts")
    .set((eb: any) => ({ phoneConfirmedAt: eb.ref("confirmedAt") }))
    .where("confirmedAt", "is not", null)
    .where("email", "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trusted_contacts").dropColumn("phoneConfirmedAt").execute();
  await db.schema.alterTable("trusted_contacts").dropColumn("emailConfirmedAt").execute();
}
