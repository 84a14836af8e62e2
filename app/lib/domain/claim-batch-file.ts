/**
 * Claim mode's batch file (decision 036) as the browser sees it: the preview's shape and the
 * confirmation's hidden field. Zod-free: the form's schema stays on the server
 * (app/lib/domain/claim-mode.ts, decision 045).
 */

/** The largest batch file claim mode reads: the staff's CSV of 10,000 stickers is about 700 KB. */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;
/** Refused rows a batch file's preview names (the counts cover all). */
export const BATCH_FILE_REFUSED_SHOWN = 50;

export type RefusedReason = "claimed" | "voided" | "unknown";

/** What claim mode shows of an uploaded batch file before it is confirmed. */
export interface BatchFilePreview {
  /** The stickers that can be claimed, as the confirmation posts them back. */
  claimable: { id: string; code: string }[];
  /** How many of them are prepaid (active at once). */
  prepaid: number;
  counts: Record<RefusedReason, number>;
  /** The first refused rows: spreadsheet row, the code as written, why. */
  refused: { row: number; code: string; reason: RefusedReason }[];
}

/** The confirmation's hidden field: the preview's claimable stickers, one `id code` a line. */
export function confirmationLines(stickers: { id: string; code: string }[]): string {
  return stickers.map((s) => `${s.id} ${s.code}`).join("\n");
}

/** The stickers a confirmation posts back (confirmationLines read); the service checks each again. */
export function parseConfirmationLines(text: string): { id: string; code: string }[] {
  return text
    .split(/\r\n|\n/)
    .map((line) => line.trim().split(" "))
    .filter((p) => p.length === 2)
    .map(([id, code]) => ({ id: id!, code: code! }));
}
