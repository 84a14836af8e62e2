/** Sticker batch and claim errors as HTTP (decision 011). */
import type { HttpErrorTable } from "../http/errors.server";
import type { StickerErrorCode } from "./stickers.service.server";

export const stickerErrors: HttpErrorTable<StickerErrorCode> = {
  "batch.size": { status: 400, key: "stickers.batches.errors.size", on: { field: "size" } },
  "batch.prepaid": { status: 400, key: "stickers.batches.errors.prepaid", on: { field: "prepaid" } },
  "batch.label": { status: 400, key: "stickers.batches.errors.label", on: { field: "label" } },
  "batch.notFound": { status: 404, key: "stickers.batches.errors.notFound", on: "page" },
  "sticker.notVoidable": { status: 409, key: "stickers.batch.errors.notVoidable", on: { field: "sticker" } },
  // One answer for wrong, claimed and voided codes (decision 036).
  "claim.notClaimable": { status: 404, key: "stickers.claim.errors.notClaimable", on: { field: "code" } },
  "claim.rateLimited": {
    status: 429,
    key: "stickers.claim.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.minutes ?? 1) * 60) }),
  },
};
