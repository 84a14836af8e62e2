/** SQL of the data processing agreement's acceptances (decision 030). */
import type { DB } from "../db/db.server";

export interface DpaAcceptance {
  version: number;
  userId: string;
  name: string;
  email: string;
  acceptedAt: number;
}

/** Every acceptance of the organisation, newest version first. */
export async function listDpaAcceptances(db: DB, organisationId: string): Promise<DpaAcceptance[]> {
  const rows = await db
    .selectFrom("dpa_acceptances")
    .select(["version", "userId", "name", "email", "acceptedAt"])
    .where("organisationId", "=", organisationId)
    .orderBy("version", "desc")
    .execute();
  return rows.map((r) => ({ ...r, version: Number(r.version), acceptedAt: Number(r.acceptedAt) }));
}

/** Whether the organisation accepted this version. */
export async function hasDpaAcceptance(db: DB, organisationId: string, version: number): Promise<boolean> {
  const row = await db
    .selectFrom("dpa_acceptances")
    .select("version")
    .where("organisationId", "=", organisationId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the acceptance; false when this version was already accepted (the first one stands). */
export async function insertDpaAcceptance(db: DB, row: DpaAcceptance & { organisationId: string }): Promise<boolean> {
  const res = await db
    .insertInto("dpa_acceptances")
    .values(row)
    .onConflict((oc) => oc.columns(["organisationId", "version"]).doNothing())
    .returning("version")
    .executeTakeFirst();
  return res !== undefined;
}
