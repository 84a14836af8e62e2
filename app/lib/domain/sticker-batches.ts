/** The staff batch form (decision 036): raw strings in, typed values or null out. */

/** Most stickers one batch holds. */
export const BATCH_MAX = 10_000;
export const BATCH_LABEL_MAX = 200;
export type PrepaidChoice = "" | "6" | "12";

export interface BatchFormValues {
  label: string;
  size: string;
  prepaid: PrepaidChoice | string;
}

/** "6" | "12" → months, "" → null, anything else → undefined (refused). */
export function parsePrepaid(value: string): 6 | 12 | null | undefined {
  if (value === "") return null;
  if (value === "6") return 6;
  if (value === "12") return 12;
  return undefined;
}

/** A whole number as typed (spaces allowed: "10 000"), or NaN. */
export function parseSize(value: string): number {
  const compact = value.replace(/[\s\u00a0]/g, "");
  return /^\d{1,6}$/.test(compact) ? Number(compact) : Number.NaN;
}
