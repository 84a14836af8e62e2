/**
 * Renewals and cancellation (decisions 016 and 017): cancelling renewal with the
 * 6-month minimum term (cancelAtProvider: at the provider first, then recorded here), for
 * the owner, a deleted item, a deleted account and a member who left; resuming; the
 * customer portal; and what each item's subscription shows. No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { cancelledSubscriptionEnd, minimumTermEnd, type Period } from "~/lib/domain/pricing";
import type { Deps } from "../service-deps.server";
import { listManagedIds } from "../access/item-access.repository.server";
import { logger } from "../logger.server";
import {
  listOrderItemIds,
  listItemsOfOrder,
  listPaidOrderItemsOfUser,
  listRenewingOrdersOfItem,
  cancelPendingOrdersOfItem,
  listRenewingOrdersOfUser,
  listOrderItemsForPayment,
  setItemPaid,
  updateOrder,
  type Order,
} from "./orders.repository.server";
import { enqueueCancelledMail, enqueueResumedMail } from "./billing.mail.server";
import { requireOrderViewer } from "./order-access.server";
import { OrderError } from "./order-error.server";
import { laterEnd } from "./payment-events.service.server";

/** What cancelling renewal of a paid order means: when it ends, and whether that is the period end. */
export function cancellationPlan(order: Pick<Order, "paidUntil" | "minimumUntil" | "paidAt">, now: number) {
  const paidUntil = order.paidUntil ?? now;
  const minimumUntil = order.minimumUntil ?? minimumTermEnd(order.paidAt ?? now);
  const endsAt = cancelledSubscriptionEnd({ paidUntil, minimumUntil });
  return { endsAt, atPeriodEnd: endsAt === paidUntil };
}

/**
 * The one way a renewal is cancelled (the owner, a deleted item, a deleted account, a
 * member who left): the provider is told first (Stripe: the subscription ends at the
 * 6-month mark or at the end of the paid period), then the order records it in one
 * transaction. Throws OrderError cancelFailed when the provider refuses, having recorded
 * nothing. Answers the items whose finder pages changed.
 */
export async function cancelAtProvider(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock">,
  order: Order,
  /** `immediately` (a withdrawal, decision 041): the subscription ends now at the provider. */
  plan: { endsAt: number; atPeriodEnd: boolean; immediately?: boolean },
  opts: {
    /** The owner's confirmation mail (not for an account being deleted). */
    mail: boolean;
    /** The test provider's committed months count as paid (the owner's own cancel). */
    coverTestMinimumTerm: boolean;
  },
): Promise<string[]> {
  try {
    await deps.payments.cancelRenewal(order, plan);
  } catch (err) {
    logger.error({ err, order: order.id }, "cancelling renewal at the payment provider failed");
    throw new OrderError("cancelFailed");
  }
  const now = deps.clock();
  const touched: string[] = [];
  await deps.db.transaction().execute(async (trx) => {
    await updateOrder(trx, order.id, { renewing: false, endsAt: plan.endsAt, cancelledAt: now, updatedAt: now });
    if (opts.mail) await enqueueCancelledMail(trx, deps.config, order, plan, now);
    if (opts.coverTestMinimumTerm && order.provider === "test") {
      // The test provider takes no renewals, so the committed months count as paid here;
      // with Stripe, invoice.paid extends paidUntil month by month until the end.
      await updateOrder(trx, order.id, { paidUntil: Math.max(order.paidUntil ?? 0, plan.endsAt) });
      const ids = await listOrderItemIds(trx, order.id);
      for (const p of await listOrderItemsForPayment(trx, ids)) {
        await setItemPaid(trx, p.id, { paidUntil: laterEnd(p, plan.endsAt), payment: order.period, updatedAt: now });
        touched.push(p.id);
      }
    }
  });
  return touched;
}

/**
 * The owner cancels renewal (cancelAtProvider). Cancelling never shortens what is paid:
 * an item's paidUntil only grows.
 */
export async function cancelRenewal(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events">,
  input: { userId: string; orderId: string },
): Promise<{ endsAt: number }> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId, "payer");
  if (order.status !== "paid") throw new OrderError("notFound");
  if (order.lapsedAt != null) throw new OrderError("ended");
  if (!order.renewing) throw new OrderError("notRenewing");
  const plan = cancellationPlan(order, deps.clock());
  const touched = await cancelAtProvider(deps, order, plan, { mail: true, coverTestMinimumTerm: true });
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  return { endsAt: plan.endsAt };
}

/**
 * Account deletion (decision 017): every subscription of the user stops renewing at the
 * provider, on the same plan as cancelRenewal (never past the paid period, never before
 * the 6-month minimum term). Throws OrderError cancelFailed when the provider refuses, so
 * the caller can stop before deleting anything. Answers what was stopped and until when.
 */
export async function stopAllRenewals(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments">,
  userId: string,
): Promise<Array<{ orderId: string; endsAt: number }>> {
  const stopped: Array<{ orderId: string; endsAt: number }> = [];
  for (const order of await listRenewingOrdersOfUser(deps.db, userId)) {
    const plan = cancellationPlan(order, deps.clock());
    await cancelAtProvider(deps, order, plan, { mail: false, coverTestMinimumTerm: false });
    stopped.push({ orderId: order.id, endsAt: plan.endsAt });
  }
  return stopped;
}

/**
 * A member's card subscriptions made in an organisation's scope stop renewing when the
 * membership ends (decision 028): the ex-member can no longer reach those orders
 * (requireOrderViewer), so they must not go on paying for the organisation's items. The
 * same plan as "cancel renewal" (never past the paid period, the 6-month minimum kept) and
 * its confirmation mail. A provider that refuses is logged for staff; the membership has
 * ended either way.
 */
export async function stopRenewalsInOrganisation(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments">,
  userId: string,
  organisationId: string,
): Promise<number> {
  let stopped = 0;
  for (const order of await listRenewingOrdersOfUser(deps.db, userId)) {
    if (order.organisationId !== organisationId) continue;
    const plan = cancellationPlan(order, deps.clock());
    try {
      await cancelAtProvider(deps, order, plan, { mail: true, coverTestMinimumTerm: false });
    } catch (err) {
      if (!(err instanceof OrderError)) throw err;
      logger.error({ order: order.id }, "an ex-member's order still renews at the payment provider: cancel it by hand");
      continue;
    }
    stopped++;
  }
  return stopped;
}

/** A subscription that deleting one of its items ends (decision 017), as the confirmation shows it. */
export interface EndedByDeletion {
  orderId: string;
  period: Period;
  endsAt: number;
  /** false: the minimum term still has monthly payments until endsAt. */
  atPeriodEnd: boolean;
  /** The order's other items (the first OTHER_ITEMS_LISTED): they stay active until endsAt, then stop. */
  otherItems: Array<{ id: string; name: string }>;
  /** How many other items there are in all. */
  otherCount: number;
}

/** The delete page names this many of a subscription's other items (an order may cover thousands). */
const OTHER_ITEMS_LISTED = 20;

/** What deleting the item would end: its renewing subscriptions, on the plan of "cancel renewal". */
export async function renewalsEndedByDeletion(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  itemId: string,
  /** Who reads the preview: only items they may manage are named (the others are counted). */
  viewer: string = userId,
): Promise<EndedByDeletion[]> {
  const now = deps.clock();
  const out: EndedByDeletion[] = [];
  for (const order of await listRenewingOrdersOfItem(deps.db, userId, itemId)) {
    const others = (await listItemsOfOrder(deps.db, order.id)).filter((i) => i.id !== itemId);
    const managed = await listManagedIds(
      deps.db,
      viewer,
      others.map((i) => i.id),
    );
    out.push({
      orderId: order.id,
      period: order.period,
      ...cancellationPlan(order, now),
      otherItems: others.filter((i) => managed.has(i.id)).slice(0, OTHER_ITEMS_LISTED),
      otherCount: others.length,
    });
  }
  return out;
}

/**
 * Deleting a paid item (decision 017): every renewing subscription covering it is cancelled
 * exactly as "cancel renewal" does (at the provider first, the 6-month minimum kept, a
 * confirmation mail). Throws OrderError cancelFailed when the provider refuses, so the
 * caller deletes nothing.
 */
export async function stopRenewalsOfItem(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events">,
  userId: string,
  itemId: string,
): Promise<void> {
  for (const order of await listRenewingOrdersOfItem(deps.db, userId, itemId)) {
    await cancelRenewal(deps, { userId, orderId: order.id });
  }
}

/**
 * Checkouts started for an item the owner deletes are cancelled (decision 017): the test
 * checkout refuses them, and a provider payment that still arrives for one activates
 * nothing (applyPayment: an order missing items is treated like a duplicate payment).
 */
export async function cancelPendingCheckoutsOfItem(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  itemId: string,
): Promise<number> {
  return cancelPendingOrdersOfItem(deps.db, userId, itemId, deps.clock());
}

/** When each renewing subscription of the user would end if cancelled now (for the delete page). */
export async function renewalEndsIfCancelled(deps: Pick<Deps, "db" | "clock">, userId: string): Promise<RenewalEnd[]> {
  const now = deps.clock();
  return (await listRenewingOrdersOfUser(deps.db, userId))
    .map((o) => {
      const plan = cancellationPlan(o, now);
      // Still charged when the minimum term outlasts what is paid.
      return { orderId: o.id, period: o.period, count: o.count, endsAt: plan.endsAt, charged: !plan.atPeriodEnd };
    })
    .sort((a, b) => a.endsAt - b.endsAt);
}

/** What deleting the account (cancelling now) means for one renewing order. */
export interface RenewalEnd {
  orderId: string;
  period: "month" | "year";
  count: number;
  /** When it ends: the minimum term's end or the paid period's end, whichever is later. */
  endsAt: number;
  /** Whether it is still charged until then (a monthly plan inside its minimum term). */
  charged: boolean;
}

/**
 * The owner undoes a cancelled renewal before the subscription ends (decision 016): the
 * provider is told first, then the order renews again; a confirmation mail.
 */
export async function resumeRenewal(
  deps: Pick<Deps, "db" | "config" | "payments" | "clock">,
  input: { userId: string; orderId: string },
): Promise<{ renewsAt: number }> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId, "payer");
  if (order.status !== "paid") throw new OrderError("notFound");
  if (order.renewing) throw new OrderError("notCancelled");
  const now = deps.clock();
  // Ended by the provider (no cancel by the owner), lapsed, or past its end: order again instead.
  if (order.lapsedAt != null || order.cancelledAt == null || (order.endsAt ?? order.paidUntil ?? 0) <= now) {
    throw new OrderError("ended");
  }
  // An item the subscription paid for was deleted (decision 017): renewing would charge for it.
  if ((await listOrderItemIds(deps.db, order.id)).length < order.count) throw new OrderError("itemsDeleted");
  try {
    await deps.payments.resumeRenewal(order);
  } catch (err) {
    logger.error({ err, order: order.id }, "resuming renewal at the payment provider failed");
    throw new OrderError("resumeFailed");
  }
  const renewsAt = order.paidUntil ?? now;
  await deps.db.transaction().execute(async (trx) => {
    await updateOrder(trx, order.id, { renewing: true, endsAt: null, cancelledAt: null, updatedAt: now });
    await enqueueResumedMail(trx, deps.config, order, renewsAt, now);
  });
  return { renewsAt };
}

/** What the cancel confirmation page shows (decision 016). */
export interface CancelPreview {
  orderId: string;
  items: Array<{ id: string; name: string }>;
  period: Period;
  endsAt: number;
  /** false: the minimum term still has monthly payments until endsAt. */
  atPeriodEnd: boolean;
}

export async function getCancelPreview(
  deps: Pick<Deps, "db" | "clock">,
  input: { userId: string; orderId: string },
): Promise<CancelPreview> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId, "payer");
  if (order.status !== "paid") throw new OrderError("notFound");
  if (order.lapsedAt != null) throw new OrderError("ended");
  if (!order.renewing) throw new OrderError("notRenewing");
  const plan = cancellationPlan(order, deps.clock());
  return {
    orderId: order.id,
    items: await listItemsOfOrder(deps.db, order.id),
    period: order.period,
    ...plan,
  };
}

/**
 * "Manage payment": a Stripe Customer Portal session for the order's own customer. Only the
 * owner's paid Stripe order with a customer; everything else is noPortal / notFound.
 */
export async function paymentPortalUrl(
  deps: Pick<Deps, "db" | "config" | "payments">,
  input: { userId: string; orderId: string; lang: Lang },
): Promise<string> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId, "payer");
  if (order.status !== "paid") throw new OrderError("notFound");
  if (deps.config.payments !== "stripe" || order.provider !== "stripe" || !order.customerId) {
    throw new OrderError("noPortal");
  }
  let url: string | null;
  try {
    url = await deps.payments.portalUrl(order, {
      returnUrl: `${deps.config.baseUrl.origin}/dashboard`,
      lang: input.lang,
    });
  } catch (err) {
    logger.error({ err, order: order.id }, "creating the customer portal session failed");
    throw new OrderError("portalFailed");
  }
  if (!url) throw new OrderError("noPortal");
  return url;
}

/** What the dashboard shows about an item's subscription. */
export interface ItemSubscription {
  orderId: string;
  /** Renews at paidUntil (true) or ends at endsAt (false). */
  renewing: boolean;
  paidUntil: number | null;
  /** When a cancelled subscription ends (≥ paidUntil for a monthly one inside the minimum term). */
  endsAt: number | null;
  /** A renewal payment failed: the card needs updating (decision 016). */
  paymentFailed: boolean;
  /** A year paid at once (decision 056): "Paid until" and "Renew". */
  paidOnce: boolean;
}

/** Per item, the paid order that covers it longest; `itemIds`: only these (a dashboard page). */
export async function listItemSubscriptions(
  deps: Pick<Deps, "db">,
  userId: string,
  itemIds?: string[],
): Promise<Record<string, ItemSubscription>> {
  const out: Record<string, ItemSubscription> = {};
  for (const r of await listPaidOrderItemsOfUser(deps.db, userId, itemIds)) {
    const prev = out[r.productId];
    if (prev && (prev.paidUntil ?? 0) >= (r.paidUntil ?? 0)) continue;
    out[r.productId] = {
      orderId: r.orderId,
      renewing: r.renewing,
      paidUntil: r.paidUntil,
      endsAt: r.endsAt,
      paymentFailed: r.paymentFailed,
      paidOnce: r.paidOnce,
    };
  }
  return out;
}
