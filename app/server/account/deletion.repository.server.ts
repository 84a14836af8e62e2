/**
 * SQL of the delete page's preview (decision 051): the organisations a user alone
 * administers, and the items (with their sticker codes) that would go with one. One query
 * per function.
 */
import type { DB } from "../db/db.server";

export interface SoleAdminship {
  id: string;
  name: string;
  /** Other members (any role): 0 means the organisation goes with the account. */
  others: number;
}

/** Organisations whose only admin the user is, with how many other members each has. */
export async function listSoleAdminships(db: DB, userId: string): Promise<SoleAdminship[]> {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("organisations as o", "o.id", "m.organisationId")
    .select((eb) => [
      "o.id",
      "o.name",
      eb
        .selectFrom("organisation_members as x")
        .select((x) => x.fn.countAll<number | string>().as("n"))
        .whereRef("x.organisationId", "=", "m.organisationId")
        .where("x.userId", "!=", userId)
        .as("others"),
    ])
    .where("m.userId", "=", userId)
    .where("m.role", "=", "admin")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("organisation_members as a")
            .select("a.userId")
            .whereRef("a.organisationId", "=", "m.organisationId")
            .where("a.role", "=", "admin")
            .where("a.userId", "!=", userId),
        ),
      ),
    )
    .orderBy("o.name")
    .orderBy("o.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, others: Number(r.others ?? 0) }));
}

/** An organisation's items, the first `limit` by name, with their sticker codes. */
export async function listItemsOfOrganisation(
  db: DB,
  organisationId: string,
  limit: number,
): Promise<Array<{ id: string; name: string; code: string; paid: boolean; paidUntil: number | null }>> {
  const rows = await db
    .selectFrom("products")
    .select(["id", "name", "code", "payed", "paidUntil"])
    .where("organisationId", "=", organisationId)
    .orderBy("name")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    code: r.code,
    paid: Number(r.payed) === 1,
    paidUntil: r.paidUntil == null ? null : Number(r.paidUntil),
  }));
}

export async function countItemsOfOrganisation(db: DB, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("organisationId", "=", organisationId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
