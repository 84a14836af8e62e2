/**
 * Sticker errors as HTTP (decision 011), in two tables because their messages live in two
 * translation areas: the staff batch pages' (`stickers`) and the owner's claim (`items`).
 */
import { errorTable } from "../http/errors.server";
import { StickerError, type StickerErrorCode } from "./stickers.service.server";

type ClaimCode = Extract<StickerErrorCode, `claim.${string}` | `org.${string}` | `file.${string}`>;

export const batchErrors = errorTable<Exclude<StickerErrorCode, ClaimCode>>(StickerError, {
  "batch.size": { status: 400, key: "stickers.batches.errors.size", on: { field: "size" } },
  "batch.prepaid": { status: 400, key: "stickers.batches.errors.prepaid", on: { field: "prepaid" } },
  "batch.label": { status: 400, key: "stickers.batches.errors.label", on: { field: "label" } },
  "batch.notFound": { status: 404, key: "stickers.batches.errors.notFound", on: "page" },
  "sticker.notVoidable": { status: 409, key: "stickers.batch.errors.notVoidable", on: { field: "sticker" } },
});

export const claimErrors = errorTable<ClaimCode>(StickerError, {
  // Text that cannot be a code: a typing mistake, costs no try (decision 036).
  "claim.invalid": { status: 400, key: "items.claim.errors.invalid" },
  // One answer for wrong, claimed and voided codes (decision 036).
  "claim.notClaimable": { status: 404, key: "items.claim.errors.notClaimable" },
  // The claimant's own item already (decision 052): said so, with a link to it on /claim.
  "claim.alreadyYours": { status: 409, key: "items.claim.errors.alreadyYours" },
  // Claim mode of an organisation the user is no admin of: the 404 page, as other admin pages.
  "org.notFound": { status: 404, key: "items.claim.errors.notClaimable", on: "page" },
  // Claiming a batch file in claim mode (decision 036).
  "file.invalid": { status: 400, key: "items.claim.errors.fileInvalid", on: { field: "file" } },
  "file.changed": { status: 409, key: "items.claim.errors.fileChanged" },
  "claim.rateLimited": {
    status: 429,
    key: "items.claim.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
});
