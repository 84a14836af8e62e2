/**
 * Renewing a year paid at once (decision 056): Swish has no mandate, so the owner renews
 * from the reminder or the dashboard. The renewal is a new order for exactly the renewed
 * order's items that are still there, at today's price in the currency the year was paid
 * in, paid with a one-time method; its year starts where the paid one ends (renewing
 * early adds the year to the end). What a consumer is asked about the right of withdrawal
 * depends on that start (`renewalWithdrawal`), here and not in the browser. No HTTP here
 * (decision 011).
 */
import type { Lang } from "~/i18n/config";
import type { Currency } from "~/lib/domain/currency";
import { offeredOneTimeMethods, type OneTimeMethod, type PayWith } from "~/lib/domain/one-time-payment";
import { orderTotals, periodEnd } from "~/lib/domain/pricing";
import { needsStartRequest, renewalWithdrawal, type RenewalWithdrawal } from "~/lib/domain/withdrawal";
import type { Deps } from "../service-deps.server";
import { startCheckout } from "./checkout.service.server";
import { langOfCurrency, renewalStart } from "./one-time.server";
import { ordersWithPaidRenewal } from "./order-list.repository.server";
import { requireOrderViewer } from "./order-access.server";
import { OrderError } from "./order-error.server";
import { listItemsForPayment, listItemsOfOrder, type Order } from "./orders.repository.server";

export interface RenewalOffer {
  orderId: string;
  /** The items renewed: the order's that are still there and the payer may still manage. */
  items: Array<{ id: string; name: string }>;
  /** Until when the renewed year is paid. */
  paidUntil: number | null;
  /** The new year, if paid now: from the end of what is paid (or now), one year on. */
  startsAt: number;
  endsAt: number;
  currency: Currency;
  /** Today's price for the year (minor units). */
  total: number;
  /** The one-time methods offered (none: the card subscription on /order is the way). */
  methods: OneTimeMethod[];
  /** A personal order: the consumer's right of withdrawal and the request to start at once. */
  consumer: boolean;
  /** What the page says of the withdrawal, and whether it asks for the start (decision 056). */
  withdrawal: RenewalWithdrawal;
}

/** The renewed order and its items still there; every refusal as the page and the POST share it. */
async function renewable(deps: Pick<Deps, "db" | "clock">, userId: string, orderId: string) {
  const order = await requireOrderViewer(deps, userId, orderId, "payer");
  if (order.paymentKind === "subscription" || order.status !== "paid" || order.withdrawnAt != null) {
    throw new OrderError("notRenewable");
  }
  if ((await ordersWithPaidRenewal(deps.db, [order.id])).has(order.id)) throw new OrderError("alreadyRenewed");
  const lines = await listItemsOfOrder(deps.db, order.id);
  const managed = await listItemsForPayment(
    deps.db,
    userId,
    lines.map((l) => l.id),
    order.organisationId,
  );
  const ids = new Set(managed.map((m) => m.id));
  const items = lines.filter((l) => ids.has(l.id));
  if (items.length === 0) throw new OrderError("itemsDeleted");
  return { order, items };
}

function offerOf(
  deps: Pick<Deps, "config">,
  order: Order,
  items: RenewalOffer["items"],
  start: number,
  now: number,
): RenewalOffer {
  const totals = orderTotals({ lang: langOfCurrency(order.currency), period: "year", count: items.length });
  const consumer = order.organisationId === null;
  return {
    orderId: order.id,
    items,
    paidUntil: order.paidUntil,
    startsAt: start,
    endsAt: periodEnd(start, "year"),
    currency: order.currency,
    total: totals.minor.total,
    methods: offeredOneTimeMethods(deps.config.oneTimeMethods, order.currency),
    consumer,
    withdrawal: renewalWithdrawal({ consumer, startsAt: start, now }),
  };
}

async function offerFor(deps: Pick<Deps, "db" | "config" | "clock">, userId: string, orderId: string) {
  const { order, items } = await renewable(deps, userId, orderId);
  const now = deps.clock();
  const start =
    (await renewalStart(
      deps.db,
      items.map((i) => i.id),
      now,
    )) ?? now;
  return { order, offer: offerOf(deps, order, items, start, now) };
}

/** What the renew page shows: the items, the new year, today's price and what withdrawing means. */
export async function getRenewalOffer(
  deps: Pick<Deps, "db" | "config" | "clock">,
  input: { userId: string; orderId: string },
): Promise<RenewalOffer> {
  return (await offerFor(deps, input.userId, input.orderId)).offer;
}

/**
 * The owner renews: a one-year checkout with the chosen method for exactly those items. A
 * consumer whose year would start while they may still withdraw must ask for it
 * (`immediateStart`, decision 041): `renewalStartRequired` for a year starting where the paid
 * one ends, `immediateStartRequired` for one starting at the payment. A year starting after
 * the 14 days asks nothing, and a request the browser sends anyway is not recorded: nothing
 * of it is used while the consumer may withdraw, so a withdrawal gives everything back.
 */
export async function startYearRenewal(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock">,
  input: { userId: string; orderId: string; payWith: PayWith; lang: Lang; immediateStart: boolean },
): Promise<{ url: string }> {
  const { order, offer } = await offerFor(deps, input.userId, input.orderId);
  if (input.payWith === "card") throw new OrderError("payWithUnavailable");
  const asked = needsStartRequest(offer.withdrawal);
  if (asked && !input.immediateStart) {
    throw new OrderError(offer.withdrawal === "atOnce" ? "immediateStartRequired" : "renewalStartRequired");
  }
  return startCheckout(deps, {
    userId: input.userId,
    itemIds: offer.items.map((i) => i.id),
    organisationId: order.organisationId,
    period: "year",
    lang: input.lang,
    immediateStart: asked,
    startsAfterWithdrawal: offer.withdrawal === "afterPeriod",
    payWith: input.payWith,
    renewalOf: order,
  });
}
