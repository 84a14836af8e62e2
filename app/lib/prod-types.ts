/** The item types (spec "Product form"): browser-safe, without the form's schema. */
export const PROD_TYPES = ["mobile", "laptop", "other"] as const;
export type ProdType = (typeof PROD_TYPES)[number];

/** A stored prodType column as a ProdType (an unknown value is shown as "other"). */
export function toProdType(v: string): ProdType {
  return (PROD_TYPES as readonly string[]).includes(v) ? (v as ProdType) : "other";
}
