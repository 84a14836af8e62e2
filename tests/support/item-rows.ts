/**
 * A products row written as the app writes it, for tests that need items in states the
 * app's own flows take long to reach (the finder page's reads and templates): paid for a
 * year, public contact details, active, no organisation, unless `row` says otherwise.
 */
import type { Runtime } from "../../app/server/runtime.server";

const YEAR = 365 * 86_400_000;

/** A sticker code for the n-th test item (digits spelled in the code alphabet). */
export const testStickerCode = (prefix: string, n: number, width: number) =>
  `${prefix}${String(n)
    .padStart(width, "0")
    .replace(/[0-9]/g, (d) => "23456789AB"[Number(d)]!)}`;

export async function insertItemRow(
  rt: Runtime,
  item: { id: string; code: string; owner: string; name: string; findFee: number; contactInfo: string },
  row: Record<string, unknown> = {},
): Promise<string> {
  const now = Date.now();
  await rt.database.db
    .insertInto("products")
    .values({
      ...item,
      currency: "SEK",
      prodType: "other",
      contactVisibility: "public",
      payment: "year",
      payed: 1,
      paidUntil: now + YEAR,
      createdAt: now,
      updatedAt: now,
      active: 1,
      scanAlerts: 0,
      lostAt: null,
      organisationId: null,
      ...row,
    } as never)
    .execute();
  return item.id;
}
