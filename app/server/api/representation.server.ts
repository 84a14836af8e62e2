/**
 * How the outside sees an item (issue 49): one zod schema for the REST API's answers
 * (/api/v1, decision 054) and the webhooks' payloads (decision 061), so a receiver's parser
 * and the OpenAPI document describe the same thing. camelCase, ISO 8601 times (UTC), ids as
 * the app stores them. Never a finder's contact details; the owner's own `contactInfo` only
 * as the item shows it on its finder page when public.
 */
import { z } from "zod";
import { isItemPaid } from "~/lib/domain/paid";
import { ITEM_TYPES, toItemType } from "~/lib/domain/item-types";

export const ITEM_STATUSES = ["unpaid", "active", "lost", "deactivated"] as const;

export const ApiItem = z
  .object({
    id: z.string().describe("The item's id; also its sticker's short URL path (/{id})."),
    code: z.string().describe("The typeable sticker code printed under the QR code."),
    name: z.string(),
    type: z.enum(ITEM_TYPES),
    finderFee: z.object({ amount: z.number().int().nonnegative(), currency: z.enum(["SEK", "EUR"]) }),
    contactVisibility: z.enum(["public", "private"]),
    status: z
      .enum(ITEM_STATUSES)
      .describe("deactivated: the sticker shows nothing; lost: lost mode; active: paid; unpaid."),
    paidUntil: z.iso.datetime().nullable(),
    lostSince: z.iso.datetime().nullable(),
    lastScannedAt: z.iso.datetime().nullable(),
    assignedTo: z.string().nullable().describe("The member's user id, or null for the organisation's."),
    url: z.url().describe("The sticker's short URL, what the QR code holds."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Item" });

export type ApiItem = z.infer<typeof ApiItem>;

/** The columns of `products` the representation reads. */
export interface ItemRowForApi {
  id: string;
  code: string;
  name: string;
  prodType: string;
  findFee: number;
  currency: string;
  contactVisibility: string;
  payed: number;
  paidUntil: number | null;
  active: number;
  lostAt: number | null;
  lastScannedAt: number | null;
  assignedTo: string | null;
  createdAt: number;
  updatedAt: number;
}

const iso = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());

export function itemStatus(row: ItemRowForApi, now: number): ApiItem["status"] {
  if (row.active === 0) return "deactivated";
  if (!isItemPaid({ payed: row.payed === 1, paidUntil: row.paidUntil }, now)) return "unpaid";
  return row.lostAt != null ? "lost" : "active";
}

export function toApiItem(row: ItemRowForApi, baseUrl: URL, now: number): ApiItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: toItemType(row.prodType),
    finderFee: { amount: row.findFee, currency: row.currency === "EUR" ? "EUR" : "SEK" },
    contactVisibility: row.contactVisibility === "private" ? "private" : "public",
    status: itemStatus(row, now),
    paidUntil: iso(row.paidUntil),
    lostSince: iso(row.lostAt),
    lastScannedAt: iso(row.lastScannedAt),
    assignedTo: row.assignedTo,
    url: `${baseUrl.origin}/${row.id}`,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
