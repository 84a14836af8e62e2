/**
 * Invoice payment for organisations (docs/decisions/027-invoice-payment.md):
 * an organisation's admin orders stickers on an invoice with 30 days' terms; the stickers
 * are activated and sent at once, the payment (Stripe's invoice.paid, or "mark paid" on
 * the simulated invoice in test mode) settles it through applyPayment; a voided invoice
 * or one unpaid long after its due date ends the stickers. Who may see an organisation's
 * invoices and receipts: its admins only. No HTTP here (decision 011).
 */
import type { SellerView } from "~/lib/domain/seller";
import { sellerOf } from "../seller/seller.server";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import type { Currency } from "~/lib/domain/currency";
import { paymentMethodOf, type PaymentMethod } from "~/lib/domain/one-time-payment";
import { normaliseVatNumber, vatTreatment, type VatTreatment } from "~/lib/domain/eu-vat";
import { minimumTermEnd, periodEnd, type Period } from "~/lib/domain/pricing";
import { netLinesOfGross } from "~/lib/domain/vat";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { billingEmailConfirmed } from "~/lib/domain/organisations";
import { findMembership, findOrganisation, type Organisation } from "../organisations/organisations.repository.server";
import {
  clearInvoiceCredit,
  listOrdersOfOrganisation,
  listReceiptsOfOrders,
  nextCounter,
} from "./billing.repository.server";
import { forgetPayNowItem, lapseOrder, releaseInvoiceShipment } from "./lifecycle.server";
import {
  findOrder,
  findUserForReceipt,
  listOrderItemIds,
  listItemsOfOrder,
  listOrderItemsForPayment,
  setItemPaid,
  updateOrder,
  type InvoiceBuyer,
  type Order,
} from "./orders.repository.server";
import { applyPayment, claimEvent, laterEnd, type PaymentResult } from "./payment-events.service.server";
import { createOrder, type OrderInput } from "./checkout.service.server";
import { OrderError } from "./order-error.server";
import { requireOrderViewer } from "./order-access.server";
import { isOrderId } from "./order-error.server";
import type { InvoiceLine, IssuedInvoice } from "./payments.server";
import { may } from "~/lib/domain/permissions";
import { readableCountry } from "~/lib/domain/countries";

type Ctx = Pick<Deps, "db" | "config" | "payments" | "clock" | "events">;

/** The buyer on an organisation's invoice, as the organisation's details say now. */
export function buyerOf(org: Organisation): InvoiceBuyer {
  return {
    name: org.name,
    orgNumber: org.orgNumber,
    email: org.billingEmail,
    street: org.invoiceStreet,
    postcode: org.invoicePostcode,
    city: org.invoiceCity,
    country: org.invoiceCountry,
    vatNumber: org.vatNumber ? normaliseVatNumber(org.vatNumber) : null,
  };
}

/** Admins of the organisation only: notFound for outsiders (decision 022), invoiceAdminOnly for members. */
async function requireOrganisationAdmin(deps: Pick<Deps, "db">, organisationId: string, userId: string) {
  const membership = await findMembership(deps.db, organisationId, userId);
  if (!membership) throw new OrderError("notFound");
  if (!may(membership.role, "invoice", "use")) throw new OrderError("invoiceAdminOnly");
  const org = await findOrganisation(deps.db, organisationId);
  if (!org) throw new OrderError("notFound");
  return org;
}

/** What /order offers in an organisation's scope: "pay by invoice" for its admins. */
export interface InvoiceOffer {
  organisation: string;
  organisationId: string;
  email: string;
  treatment: VatTreatment;
  /** INVOICE_CREDIT_ITEMS: items on credit until the first invoice is paid. */
  creditItems: number;
  /** Why the admin cannot invoice yet (decision 028): their own email or the billing email unconfirmed. */
  blocker: "verifyEmail" | "billingEmail" | null;
}

export async function getInvoiceOffer(
  deps: Pick<Deps, "db" | "config">,
  userId: string,
  organisationId: string | null,
): Promise<InvoiceOffer | null> {
  if (!organisationId) return null;
  const membership = await findMembership(deps.db, organisationId, userId);
  if (!may(membership?.role, "invoice", "use")) return null;
  const org = await findOrganisation(deps.db, organisationId);
  if (!org) return null;
  const verified = (await findUserForReceipt(deps.db, userId))?.emailVerified === true;
  return {
    organisation: org.name,
    organisationId: org.id,
    email: org.billingEmail,
    treatment: vatTreatment({ country: org.invoiceCountry, vatNumber: org.vatNumber }),
    creditItems: deps.config.invoiceCreditItems,
    blocker: !verified ? "verifyEmail" : !billingEmailConfirmed(org) ? "billingEmail" : null,
  };
}

/**
 * The invoice's lines: the package price, and the discount when there is one. As charged
 * (VAT included, what the provider's invoice items add up to), or `net` for the invoice
 * page, whose lines stand beside "Amount excluding VAT" (decision 038).
 */
export function invoiceLines(order: Order, lang: Lang, opts: { net?: boolean } = {}): InvoiceLine[] {
  const t = getT(lang);
  const amounts = opts.net ? netLinesOfGross(order) : order;
  const lines: InvoiceLine[] = [
    {
      description: t("invoices.line.package", {
        count: order.count,
        period: t(`invoices.line.period.${order.period}`),
      }),
      amount: amounts.packageAmount,
    },
  ];
  if (order.discountAmount > 0) {
    lines.push({ description: t("invoices.line.discount"), amount: -amounts.discountAmount });
  }
  return lines;
}

/** The note on the invoice and its receipt: the reverse charge with the buyer's VAT number, or VAT included. */
export function invoiceNote(order: Pick<Order, "reverseCharge" | "invoiceTo">, lang: Lang): string {
  const t = getT(lang);
  if (order.reverseCharge) {
    return `${t("invoices.reverseCharge")}. ${t("invoices.buyerVat", { vat: order.invoiceTo?.vatNumber ?? "" })}`;
  }
  return t("invoices.vatIncluded");
}

/**
 * "Pay by invoice" on /order: an organisation admin's order of the organisation's items,
 * yearly, on an invoice with 30 days' terms. The invoice is made at the provider first;
 * then, in one transaction, the order is `invoiced`, its items active for the year and
 * its stickers queued for shipping. Returns the invoice page to go to.
 */
export async function startInvoice(deps: Ctx, input: OrderInput): Promise<{ orderId: string; url: string }> {
  if (!input.organisationId) throw new OrderError("invoiceOrganisationOnly");
  const org = await requireOrganisationAdmin(deps, input.organisationId, input.userId);
  // Accountable invoicing (decision 028): a verified admin, a confirmed billing email; the
  // overdue and credit checks run with the insert (insertOrder), under one lock.
  if (!(await findUserForReceipt(deps.db, input.userId))?.emailVerified) throw new OrderError("invoiceVerifyEmail");
  if (!billingEmailConfirmed(org)) throw new OrderError("invoiceBillingUnconfirmed");
  // A monthly invoice would fall due when its month is over: invoices are yearly.
  if (input.period !== "year") throw new OrderError("invoiceYearlyOnly");
  const buyer = buyerOf(org);
  const reverseCharge = vatTreatment({ country: buyer.country, vatNumber: buyer.vatNumber }) === "reverseCharge";
  const order = await createOrder(deps, input, { buyer, reverseCharge });
  const now = deps.clock();
  let issued;
  try {
    issued = await deps.payments.issueInvoice({
      order,
      buyer,
      lines: invoiceLines(order, input.lang),
      note: invoiceNote(order, input.lang),
      lang: input.lang,
      now,
    });
  } catch (err) {
    logger.error({ err, order: order.id }, "issuing the invoice failed");
    // Nothing was sent: the order is dropped rather than left pending.
    await updateOrder(deps.db, order.id, { status: "cancelled", updatedAt: deps.clock() });
    throw new OrderError("invoiceFailed");
  }
  const touched: string[] = [];
  try {
    await activateInvoiced(deps, order, issued, now, touched);
  } catch (err) {
    // The invoice is out but the order could not be recorded: void it, cancel the order.
    logger.error({ err, order: order.id }, "recording the issued invoice failed");
    await deps.payments.voidInvoice({ id: order.id, invoiceId: issued.invoiceId });
    await updateOrder(deps.db, order.id, { status: "cancelled", voidedAt: deps.clock(), updatedAt: deps.clock() });
    throw new OrderError("invoiceFailed");
  }
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  return { orderId: order.id, url: `/order/${order.id}/invoice` };
}

/**
 * startInvoice's one transaction: the order invoiced, its items active (on credit, within
 * INVOICE_CREDIT_ITEMS until the first invoice is paid). Its stickers ship once it is paid
 * or staff release them (decision 028); the remembered pay-now item is forgotten now.
 */
async function activateInvoiced(
  deps: Ctx,
  order: Order,
  issued: IssuedInvoice,
  now: number,
  touched: string[],
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const number = issued.number ?? `TEST-${await nextCounter(trx, "invoice")}`;
    const paidUntil = periodEnd(order.createdAt, order.period);
    await updateOrder(trx, order.id, {
      status: "invoiced",
      invoiceId: issued.invoiceId,
      invoiceNumber: number,
      invoiceUrl: issued.url,
      dueAt: issued.dueAt,
      paidUntil,
      minimumUntil: minimumTermEnd(order.createdAt),
      renewing: false,
      updatedAt: now,
    });
    // Shipped on invoice (decision 027): the stickers work from today.
    const ids = await listOrderItemIds(trx, order.id);
    // The order's own lines (checked in scope by createOrder): an admin demoted since must
    // not leave an invoiced order with nothing active.
    for (const p of await listOrderItemsForPayment(trx, ids)) {
      await setItemPaid(trx, p.id, { paidUntil: laterEnd(p, paidUntil), payment: order.period, updatedAt: now });
      touched.push(p.id);
    }
    await forgetPayNowItem(trx, order.userId, ids, now);
  });
}

export type InvoiceState = "open" | "overdue" | "paid" | "void" | "lapsed";

export function invoiceStateOf(
  order: Pick<Order, "status" | "dueAt" | "lapsedAt" | "voidedAt" | "paymentFailedAt">,
  now: number,
): InvoiceState {
  if (order.status === "paid") return "paid";
  if (order.voidedAt != null || order.status === "cancelled") return "void";
  if (order.lapsedAt != null) return "lapsed";
  if ((order.dueAt != null && order.dueAt < now) || order.paymentFailedAt != null) return "overdue";
  return "open";
}

/** An invoice as its page shows it (the simulated one in test mode, or Stripe's summarised). */
export interface InvoiceView {
  orderId: string;
  number: string;
  provider: Order["provider"];
  simulated: boolean;
  state: InvoiceState;
  issuedAt: number;
  dueAt: number;
  paidAt: number | null;
  currency: Currency;
  period: Period;
  periodEnd: number | null;
  lines: InvoiceLine[];
  items: string[];
  itemCount: number;
  netAmount: number;
  vatAmount: number;
  totalAmount: number;
  reverseCharge: boolean;
  buyer: InvoiceBuyer;
  seller: SellerView;
  /** Stripe's hosted invoice page. */
  providerUrl: string | null;
  /** The simulated invoice can be marked paid (test mode, still open). */
  canMarkPaid: boolean;
}

/** The invoice page: the organisation's admins only (requireOrderViewer). */
export async function getInvoiceView(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  input: { userId: string; orderId: string; lang: Lang },
): Promise<InvoiceView> {
  const order = await requireOrderViewer(deps, input.userId, input.orderId);
  if (order.method !== "invoice" || !order.invoiceNumber || !order.invoiceTo || order.dueAt == null) {
    throw new OrderError("notFound");
  }
  const items = (await listItemsOfOrder(deps.db, order.id)).map((i) => i.name);
  const state = invoiceStateOf(order, deps.clock());
  const simulated = order.provider === "test";
  return {
    orderId: order.id,
    number: order.invoiceNumber,
    provider: order.provider,
    simulated,
    state,
    issuedAt: order.createdAt,
    dueAt: order.dueAt,
    paidAt: order.status === "paid" ? order.paidAt : null,
    currency: order.currency,
    period: order.period,
    periodEnd: order.paidUntil,
    lines: invoiceLines(order, order.lang === input.lang ? order.lang : input.lang, { net: true }),
    items: items.slice(0, 50),
    itemCount: items.length,
    netAmount: order.totalAmount - order.vatAmount,
    vatAmount: order.vatAmount,
    totalAmount: order.totalAmount,
    reverseCharge: order.reverseCharge,
    // The country as a name in the reader's language, as on receipts (decision 057).
    buyer: { ...order.invoiceTo, country: readableCountry(order.invoiceTo.country, input.lang) },
    seller: sellerOf(deps.config),
    providerUrl: simulated ? null : order.invoiceUrl,
    canMarkPaid:
      simulated && deps.config.payments === "test" && (state === "open" || state === "overdue" || state === "lapsed"),
  };
}

/**
 * Test mode: an admin of the organisation (the test flow) marks the simulated invoice
 * paid; it is settled through applyPayment, exactly as Stripe's invoice.paid would.
 */
export async function markTestInvoicePaid(
  deps: Ctx,
  input: { userId: string; orderId: string },
): Promise<PaymentResult> {
  if (deps.config.payments !== "test") throw new OrderError("notFound");
  const order = await requireOrderViewer(deps, input.userId, input.orderId);
  if (order.method !== "invoice" || order.provider !== "test") throw new OrderError("notFound");
  if (order.status !== "invoiced" && order.status !== "paid") throw new OrderError("notFound");
  return applyPayment(deps, {
    eventId: `test:invoice:${order.id}`,
    eventType: "test.invoice.paid",
    orderId: order.id,
    paidAt: deps.clock(),
    amount: { total: order.totalAmount, currency: order.currency },
    kind: "first",
  });
}

/**
 * Stripe's other invoice events for an invoice order (decision 027), each applied once:
 * `failed` (a payment attempt on the hosted page failed: the invoice stays open, the list
 * says so), `overdue` (past its due date: marked; the billing job ends the stickers
 * PAYMENT_RETRY_GRACE_MS later), `voided` (voided or written off: the order ends now,
 * items unpaid unless another order covers them, the orderer told).
 */
export async function applyInvoiceEvent(
  deps: Ctx,
  input: { eventId: string; eventType: string; orderId: string; kind: "failed" | "overdue" | "voided" },
): Promise<PaymentResult> {
  const now = deps.clock();
  let touched: string[] = [];
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentResult> => {
    const { order, fresh } = await claimEvent({ db: trx }, input, now);
    if (!fresh) return "duplicate";
    if (!order) return "unknownOrder";
    if (order.method !== "invoice" || order.status !== "invoiced") return "ignored";
    if (input.kind === "voided") {
      await updateOrder(trx, order.id, { status: "cancelled", voidedAt: now, updatedAt: now });
      touched = (await lapseOrder(trx, deps, order, now, now)) ?? [];
      return "applied";
    }
    if (order.paymentFailedAt == null) await updateOrder(trx, order.id, { paymentFailedAt: now, updatedAt: now });
    if (input.kind === "overdue") {
      const overdue = { orderId: order.id, organisationId: order.organisationId, at: now };
      await deps.events.emit("invoiceOverdue", overdue, { ...deps, db: trx });
    }
    return "applied";
  });
  await deps.events.emit("itemsChanged", { itemIds: touched }, deps);
  return result;
}

/** One row of an organisation's invoices and receipts. */
export interface OrganisationBillingRow {
  orderId: string;
  method: Order["method"];
  /** What pays it (card, swish, klarna, invoice). */
  paymentMethod: PaymentMethod;
  /** Invoice number (invoice orders), else null. */
  invoiceNumber: string | null;
  state: InvoiceState;
  createdAt: number;
  dueAt: number | null;
  currency: Currency;
  totalAmount: number;
  reverseCharge: boolean;
  itemCount: number;
  receipts: Array<{ number: number; paidAt: number; totalAmount: number }>;
}

/** The organisation's invoices and receipts: its admins only (members forbidden, outsiders notFound). */
export async function listOrganisationBilling(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  organisationId: string,
): Promise<OrganisationBillingRow[]> {
  await requireOrganisationAdmin(deps, organisationId, userId);
  const orders = await listOrdersOfOrganisation(deps.db, organisationId);
  const receipts = await listReceiptsOfOrders(
    deps.db,
    orders.map((o) => o.id),
  );
  const now = deps.clock();
  return orders.map((o) => ({
    orderId: o.id,
    method: o.method,
    paymentMethod: paymentMethodOf(o),
    invoiceNumber: o.invoiceNumber,
    state: invoiceStateOf(o, now),
    createdAt: o.createdAt,
    dueAt: o.dueAt,
    currency: o.currency,
    totalAmount: o.totalAmount,
    reverseCharge: o.reverseCharge,
    itemCount: o.count,
    receipts: receipts
      .filter((r) => r.orderId === o.id)
      .map((r) => ({ number: r.number, paidAt: r.paidAt, totalAmount: r.totalAmount })),
  }));
}

/**
 * Staff release an invoiced order's stickers before its invoice is paid (decision 028, on
 * /admin/orders). Queued once, however often it is pressed or whatever payment comes at
 * the same time. notFound for anything but an unpaid invoice order.
 */
export async function releaseInvoiceShipmentByStaff(deps: Ctx, orderId: string): Promise<boolean> {
  const order = isOrderId(orderId) ? await findOrder(deps.db, orderId) : undefined;
  if (!order || order.method !== "invoice" || order.status !== "invoiced") throw new OrderError("notFound");
  return deps.db.transaction().execute((trx) => releaseInvoiceShipment(trx, order, deps.clock()));
}

/**
 * Staff clear an overdue or lapsed invoice (decision 028, on /admin/orders): the
 * organisation, and those with its number, may invoice again (the invoice itself stays
 * unpaid and can still be paid). notFound for anything but an unpaid invoice order.
 */
export async function clearOverdueInvoice(deps: Ctx, orderId: string, staffEmail: string): Promise<boolean> {
  const order = isOrderId(orderId) ? await findOrder(deps.db, orderId) : undefined;
  if (!order || order.method !== "invoice" || order.status === "paid") throw new OrderError("notFound");
  return clearInvoiceCredit(deps.db, order.id, staffEmail, deps.clock());
}
