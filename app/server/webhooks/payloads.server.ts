/**
 * What a webhook carries (decision 061): `{ id, type, timestamp, data }`, its `data` the
 * things' API representations. The item is the API's own (api/representation.server.ts,
 * the same object /api/v1 answers); what the API does not represent yet is described here
 * in the same style: camelCase, ISO 8601 times in UTC. Never a finder's contact details: a
 * message carries its text and conversation, not the finder's email or number, and not
 * where the finder was (only whether they shared a place).
 */
import { z } from "zod";
import { PAYMENT_METHODS, paymentMethodOf } from "~/lib/domain/one-time-payment";
import { ApiItem } from "../api/representation.server";

const iso = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());

export const WebhookMessage = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    author: z.literal("finder"),
    text: z.string(),
    /** The message opened the conversation. */
    first: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookMessage" });

export const WebhookScan = z
  .object({
    at: z.iso.datetime(),
    device: z.enum(["phone", "tablet", "desktop"]),
    lang: z.enum(["en", "sv"]),
    /** The item was in lost mode. */
    lost: z.boolean(),
  })
  .meta({ id: "WebhookScan" });

export const WebhookOrder = z
  .object({
    id: z.string(),
    status: z.string(),
    method: z.enum(["card", "invoice"]).describe("Checkout (`card`, whatever the payer used there) or invoice."),
    paymentMethod: z
      .enum(PAYMENT_METHODS)
      .describe("What pays it: a card subscription, one year by Swish or Klarna, or an invoice."),
    period: z.enum(["month", "year"]),
    currency: z.string(),
    /** Minor units (öre, cent). */
    totalAmount: z.number().int(),
    itemCount: z.number().int(),
    invoiceNumber: z.string().nullable(),
    dueAt: z.iso.datetime().nullable(),
    paidAt: z.iso.datetime().nullable(),
    paidUntil: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookOrder" });

export type WebhookOrder = z.infer<typeof WebhookOrder>;

/** The body of every delivery. */
export const WebhookPayload = z.object({
  id: z.string().describe("The event's id; also the webhook-id header: the same on every retry."),
  type: z.string(),
  timestamp: z.iso.datetime(),
  data: z.object({
    item: ApiItem.optional(),
    items: z.array(ApiItem).optional(),
    message: WebhookMessage.optional(),
    scan: WebhookScan.optional(),
    order: WebhookOrder.optional(),
  }),
});

export type WebhookPayload = z.infer<typeof WebhookPayload>;
export type WebhookData = WebhookPayload["data"];

export function toWebhookOrder(row: {
  id: string;
  status: string;
  method: string;
  paymentKind: string;
  period: string;
  currency: string;
  totalAmount: number;
  count: number;
  invoiceNumber: string | null;
  dueAt: number | null;
  paidAt: number | null;
  paidUntil: number | null;
  createdAt: number;
}): WebhookOrder {
  return {
    id: row.id,
    status: row.status,
    method: row.method === "invoice" ? "invoice" : "card",
    paymentMethod: paymentMethodOf(row),
    period: row.period === "year" ? "year" : "month",
    currency: row.currency,
    totalAmount: row.totalAmount,
    itemCount: row.count,
    invoiceNumber: row.invoiceNumber,
    dueAt: iso(row.dueAt),
    paidAt: iso(row.paidAt),
    paidUntil: iso(row.paidUntil),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export { iso as isoTime };
