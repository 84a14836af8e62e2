/** The item types (spec "Product form"): browser-safe, without the form's schema. */
export const ITEM_TYPES = ["mobile", "laptop", "other"] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** A stored prodType column as an ItemType (an unknown value is shown as "other"). */
export function toItemType(v: string): ItemType {
  return (ITEM_TYPES as readonly string[]).includes(v) ? (v as ItemType) : "other";
}
