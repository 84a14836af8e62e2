/**
 * How the outside sees an item (issue 49): one zod schema for the REST API's answers
 * (/api/v1, decision 054) and the webhooks' payloads (decision 061), so a receiver's parser
 * and the OpenAPI document describe the same thing. camelCase, ISO 8601 times (UTC), ids as
 * the app stores them. Never a finder's contact details; the owner's own `contactInfo` only
 * as the item shows it on its finder page when public.
 */
import { z } from "zod";
import { isItemPaid } from "~/lib/domain/paid";
import { ITEM_TYPES, toItemType } from "~/lib/domain/item-types";
import { PAYMENT_METHODS } from "~/lib/domain/one-time-payment";

export const ITEM_STATUSES = ["unpaid", "active", "lost", "deactivated"] as const;

export const ApiItem = z
  .object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    type: z.enum(ITEM_TYPES),
    finderFee: z.object({ amount: z.number().int().nonnegative(), currency: z.enum(["SEK", "EUR"]) }),
    contactVisibility: z.enum(["public", "private"]),
    status: z.enum(ITEM_STATUSES),
    paidUntil: z.iso.datetime().nullable(),
    lostSince: z.iso.datetime().nullable(),
    lastScannedAt: z.iso.datetime().nullable(),
    assignedTo: z.string().nullable(),
    url: z.url(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Item" });

export type ApiItem = z.infer<typeof ApiItem>;

/** The columns of `products` the representation reads. */
export interface ItemRowForApi {
  id: string;
  code: string;
  name: string;
  prodType: string;
  findFee: number;
  currency: string;
  contactVisibility: string;
  payed: number;
  paidUntil: number | null;
  active: number;
  lostAt: number | null;
  lastScannedAt: number | null;
  assignedTo: string | null;
  createdAt: number;
  updatedAt: number;
}

const iso = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());

export function itemStatus(row: ItemRowForApi, now: number): ApiItem["status"] {
  if (row.active === 0) return "deactivated";
  if (!isItemPaid({ payed: row.payed === 1, paidUntil: row.paidUntil }, now)) return "unpaid";
  return row.lostAt != null ? "lost" : "active";
}

export function toApiItem(row: ItemRowForApi, baseUrl: URL, now: number): ApiItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: toItemType(row.prodType),
    finderFee: { amount: row.findFee, currency: row.currency === "EUR" ? "EUR" : "SEK" },
    contactVisibility: row.contactVisibility === "private" ? "private" : "public",
    status: itemStatus(row, now),
    paidUntil: iso(row.paidUntil),
    lostSince: iso(row.lostAt),
    lastScannedAt: iso(row.lastScannedAt),
    assignedTo: row.assignedTo,
    url: `${baseUrl.origin}/${row.id}`,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** An item's row as the repositories give it (booleans), in the representation's columns. */
export function itemRowOf(item: {
  id: string;
  code: string;
  name: string;
  prodType: string;
  findFee: number;
  currency: string;
  contactVisibility: string;
  payed: boolean;
  paidUntil: number | null;
  active: boolean;
  lostAt: number | null;
  lastScannedAt: number | null;
  assignedTo: string | null;
  createdAt: number;
  updatedAt: number;
}): ItemRowForApi {
  return { ...item, payed: item.payed ? 1 : 0, active: item.active ? 1 : 0 };
}

/** One page of a list: the things, and the cursor of the next page (null: the last page). */
export const apiPage = <T extends z.ZodType>(data: T, id: string) =>
  z
    .object({
      data: z.array(data),
      nextCursor: z.string().nullable(),
    })
    .meta({ id });

export const ItemPage = apiPage(ApiItem, "ItemPage");

/** A visit of an item's sticker page (its QR code or short URL): when, the page's language, the device class. */
export const ApiScan = z
  .object({
    scannedAt: z.iso.datetime(),
    lang: z.enum(["en", "sv"]),
    device: z.enum(["phone", "tablet", "desktop"]),
  })
  .meta({ id: "Scan" });
export type ApiScan = z.infer<typeof ApiScan>;

/** A finder's conversation about an item. Never the finder's address or number. */
export const ApiConversation = z
  .object({
    id: z.string(),
    itemId: z.string(),
    createdAt: z.iso.datetime(),
    lastMessageAt: z.iso.datetime(),
    channel: z.enum(["web", "sms"]),
    returned: z.boolean(),
  })
  .meta({ id: "Conversation" });
export type ApiConversation = z.infer<typeof ApiConversation>;

export const ConversationPage = apiPage(ApiConversation, "ConversationPage");

export const ApiMessage = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    author: z.enum(["finder", "organisation"]),
    text: z.string(),
    createdAt: z.iso.datetime(),
    read: z.boolean(),
  })
  .meta({ id: "Message" });
export type ApiMessage = z.infer<typeof ApiMessage>;

export const MessageList = z.object({ data: z.array(ApiMessage) }).meta({ id: "MessageList" });

export const ApiMember = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(["admin", "member"]),
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: "Member" });
export type ApiMember = z.infer<typeof ApiMember>;

export const MemberList = z.object({ data: z.array(ApiMember) }).meta({ id: "MemberList" });

const money = z.object({
  amount: z.number().int(),
  currency: z.enum(["SEK", "EUR"]),
});

export const ApiOrder = z
  .object({
    id: z.string(),
    method: z.enum(["card", "invoice"]),
    paymentMethod: z.enum(PAYMENT_METHODS),
    state: z.enum(["open", "overdue", "paid", "void", "lapsed"]),
    itemCount: z.number().int(),
    total: money,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Order" });
export type ApiOrder = z.infer<typeof ApiOrder>;

export const OrderList = z.object({ data: z.array(ApiOrder) }).meta({ id: "OrderList" });

export const ApiInvoice = z
  .object({
    orderId: z.string(),
    number: z.string().nullable(),
    state: z.enum(["open", "overdue", "paid", "void", "lapsed"]),
    total: money,
    reverseCharge: z.boolean(),
    createdAt: z.iso.datetime(),
    dueAt: z.iso.datetime().nullable(),
    paidAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "Invoice" });
export type ApiInvoice = z.infer<typeof ApiInvoice>;

export const InvoiceList = z.object({ data: z.array(ApiInvoice) }).meta({ id: "InvoiceList" });

export const ScanList = z
  .object({
    data: z.array(ApiScan),
    nextSince: z.iso.datetime().nullable(),
  })
  .meta({ id: "ScanList" });

/** RFC 9457 problem details, with the service's error code. */
export const ApiProblem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });
export type ApiProblem = z.infer<typeof ApiProblem>;
