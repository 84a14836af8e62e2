/**
 * The shipment queue's tabs (decision 015), apart from fulfil.ts's schemas so the
 * shipments page's component downloads no zod (decision 045).
 */

/** "dropped": never to be posted, the account was deleted (decision 051). */
export const SHIPMENT_FILTERS = ["pending", "shipped", "dropped"] as const;
export type ShipmentFilter = (typeof SHIPMENT_FILTERS)[number];

export function parseShipmentFilter(params: URLSearchParams): ShipmentFilter {
  const v = params.get("status");
  return v === "shipped" || v === "dropped" ? v : "pending";
}
