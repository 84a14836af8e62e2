/**
 * What the API takes (decision 054): one zod schema per body and query, used to validate
 * and, by openapi.server.ts, to write the OpenAPI document, so the two cannot differ.
 * Objects are strict: an unknown field is refused (400 input.invalid), not ignored.
 */
import { z } from "zod";
import { ITEM_TYPES } from "~/lib/domain/item-types";
import { PAID_FILTERS, SEARCH_MAX } from "~/lib/domain/item-filter";
import { RELAY_MESSAGE_MAX } from "~/lib/domain/relay-limits";
import { CONTACT_INFO_MAX, FIND_FEE_MAX, NAME_MAX } from "~/lib/forms/product-fields";

/** Things a list page gives at most, and by default. */
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 25;

const memberId = z.string().min(1).max(64);

export const ItemCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(NAME_MAX),
    type: z.enum(ITEM_TYPES).default("other"),
    finderFee: z.number().int().min(0).max(FIND_FEE_MAX).default(0),
    contactInfo: z.string().trim().max(CONTACT_INFO_MAX).optional(),
    contactVisibility: z.enum(["public", "private"]).default("private"),
    assignedTo: memberId.nullable().optional(),
    scanAlerts: z.boolean().optional(),
  })
  .meta({ id: "ItemCreate" });
export type ItemCreate = z.infer<typeof ItemCreate>;

export const ItemPatch = z
  .strictObject({
    name: z.string().trim().min(1).max(NAME_MAX).optional(),
    type: z.enum(ITEM_TYPES).optional(),
    finderFee: z.number().int().min(0).max(FIND_FEE_MAX).optional(),
    contactInfo: z.string().trim().max(CONTACT_INFO_MAX).optional(),
    contactVisibility: z.enum(["public", "private"]).optional(),
    assignedTo: memberId.nullable().optional(),
    scanAlerts: z.boolean().optional(),
    active: z.boolean().optional(),
    lost: z.boolean().optional(),
  })
  .meta({ id: "ItemPatch" });
export type ItemPatch = z.infer<typeof ItemPatch>;

const bool = z.enum(["true", "false"]).transform((v) => v === "true");
const limit = z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT);
const cursor = z.string().max(200).optional();

export const ItemListQuery = z.strictObject({
  q: z.string().max(SEARCH_MAX).optional(),
  type: z.enum(ITEM_TYPES).optional(),
  paid: z.enum(PAID_FILTERS).optional(),
  lost: bool.optional(),
  limit,
  cursor,
});
export type ItemListQuery = z.infer<typeof ItemListQuery>;

export const ListQuery = z.strictObject({ limit, cursor });

export const ScanQuery = z.strictObject({
  since: z.iso.datetime().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type ScanQuery = z.infer<typeof ScanQuery>;

export const ReplyCreate = z
  .strictObject({ text: z.string().trim().min(1).max(RELAY_MESSAGE_MAX) })
  .meta({ id: "ReplyCreate" });

export const StickerClaim = z
  .strictObject({
    code: z.string().min(1).max(40),
    name: z.string().trim().max(NAME_MAX).optional(),
    assignedTo: memberId.nullable().optional(),
  })
  .meta({ id: "StickerClaim" });

export const IdParam = z.strictObject({ id: z.string().min(1).max(64) });
