import type { Currency } from "./currency";
import type { Period } from "./pricing";

/** How many item names a subscription lists; an order of thousands (decision 021) says "and N more". */
export const ITEMS_LISTED = 5;

/** The dashboard's "Orders and receipts": each paid subscription and its receipts. */
export interface BillingOverview {
  /** Stripe: "Manage payment" opens the Customer Portal. */
  portal: boolean;
  orders: Array<{
    id: string;
    /** The first ITEMS_LISTED item names; `itemCount` says how many there are in all. */
    items: string[];
    itemCount: number;
    period: Period;
    currency: Currency;
    totalAmount: number;
    paidUntil: number | null;
    renewing: boolean;
    /** A year paid at once (decision 056): "Paid until", and "Renew" while `renewable`. */
    paidOnce: boolean;
    /** Not renewed yet, nor withdrawn. */
    renewable: boolean;
    endsAt: number | null;
    /** Cancelled by the owner and not yet ended: "Resume renewal". */
    resumable: boolean;
    paymentFailed: boolean;
    lapsed: boolean;
    /** A consumer may withdraw until then (decision 041); null: not offered. */
    withdrawUntil: number | null;
    /** Withdrawn: when, and the refund (minor units). */
    withdrawn: { at: number; refund: number } | null;
    receipts: Array<{ number: number; paidAt: number; totalAmount: number }>;
  }>;
}
