/**
 * The item filter's query string parsed with zod (app/lib/domain/item-filter.ts has the types and
 * the browser-side helpers). Loaders only: keeps zod out of the dashboard's bundle.
 */
import { z } from "zod";
import { PAID_FILTERS, SEARCH_MAX, type ItemQuery } from "./item-filter";
import { ITEM_TYPES } from "./item-types";
import { isItemId } from "./ids";

const schema = z.object({
  q: z
    .string()
    .catch("")
    .transform((s) =>
      s
        .replace(/\p{Cc}/gu, " ")
        .trim()
        .slice(0, SEARCH_MAX),
    ),
  type: z.enum(ITEM_TYPES).nullable().catch(null),
  paid: z.enum(PAID_FILTERS).nullable().catch(null),
  lost: z
    .string()
    .nullable()
    .transform((v) => v === "1"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

export function parseItemQuery(params: URLSearchParams): ItemQuery {
  return schema.parse({
    q: params.get("q") ?? "",
    type: params.get("type") || null,
    paid: params.get("paid") || null,
    lost: params.get("lost"),
    page: params.get("page") ?? 1,
  });
}

/**
 * `/order?item=` (decision 051): the item "Save and pay now" came from, when the value
 * is an item id at all; the order page's service decides whether it may be paid for.
 */
export function parseFocusItem(params: URLSearchParams): string | null {
  return z.string().refine(isItemId).nullable().catch(null).parse(params.get("item"));
}
