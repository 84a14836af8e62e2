/**
 * Claim mode's form (decision 036): one sticker code at a time, the member to assign the
 * new item to and an optional name. Messages are translation keys. A code that cannot be
 * one fails here, before any look-up, so it costs no try of the claim limits.
 */
import { z } from "zod";
import { NAME_MAX } from "../forms/product-fields";
import { normalizeStickerCode } from "./sticker-code";

/** The `assignedTo` value for "nobody" (the organisation's desk). */
export const ASSIGN_NOBODY = "";

export const claimModeSchema = z.object({
  code: z
    .string("items.claim.errors.invalid")
    .max(64, "items.claim.errors.invalid")
    .refine((v) => normalizeStickerCode(v) !== null, "items.claim.errors.invalid"),
  assignedTo: z
    .string()
    .max(200)
    .catch(ASSIGN_NOBODY)
    .transform((v) => (v.trim() === ASSIGN_NOBODY ? null : v.trim())),
  name: z.preprocess((v) => v ?? "", z.string().trim().max(NAME_MAX, "items.form.errors.nameTooLong")),
});

export type ClaimModeValues = { code: string; assignedTo: string; name: string };

export * from "./claim-batch-file";
