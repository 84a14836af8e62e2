/**
 * Browser-safe parsing for fulfilment (decision 015): the queue filter, the selection of
 * shipments (repeated `shipments=`/`orders=` fields or comma-separated lists, as a plain
 * HTML form or a typed URL sends them), the mark-shipped form and the replacement form.
 */
import { z } from "zod";

// The queue's tabs, without zod: the shipments page's component renders them (decision 045).
export { parseShipmentFilter, SHIPMENT_FILTERS, type ShipmentFilter } from "../forms/fulfil-filters";

/** Ids are UUIDs (shipments) or our random ids (orders): letters, digits, dashes. */
const ID_RE = /^[A-Za-z0-9-]{1,64}$/;

export interface SelectionInput {
  shipments: string[];
  orders: string[];
}

function idsOf(values: string[]): string[] | null {
  const ids = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  if (!ids.every((id) => ID_RE.test(id))) return null;
  return [...new Set(ids)];
}

/** The selection in a query string or form, or null when an id is malformed. */
export function parseSelection(source: { getAll(name: string): unknown[] }): SelectionInput | null {
  const strings = (name: string) => source.getAll(name).filter((v): v is string => typeof v === "string");
  const shipments = idsOf(strings("shipments"));
  const orders = idsOf(strings("orders"));
  if (!shipments || !orders) return null;
  return { shipments, orders };
}

export const TRACKING_MAX = 64;

export const shipFormSchema = z.object({
  intent: z.literal("ship"),
  tracking: z.string().max(200).default(""),
});

export const REPLACEMENT_MODES = ["reprint", "newCode"] as const;
export type ReplacementModeInput = (typeof REPLACEMENT_MODES)[number];

export const replacementFormSchema = z.object({
  mode: z.enum(REPLACEMENT_MODES, "fulfil.replacement.mode"),
});
