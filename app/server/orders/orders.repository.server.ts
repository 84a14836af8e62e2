/**
 * SQL for orders, their items, applied payment events and sticker shipments. Rows are
 * converted here (decision 004): 0/1 → boolean, text → the unions of app/lib, the stored
 * address JSON → Address.
 */
import { type Insertable, type Selectable, type Updateable } from "kysely";
import { isLang, type Lang } from "~/i18n/config";
import { parseStoredAddress, type Address } from "~/lib/domain/address";
import { toCurrency, type Currency } from "~/lib/domain/currency";
import {
  toOrderStatus,
  toPaymentMethod,
  toProvider,
  type OrderStatus,
  type PaymentMethod,
  type Provider,
} from "~/lib/forms/order-form";
import { toPaymentKind, type PaymentKind } from "~/lib/domain/one-time-payment";
import { toPeriod, type Period } from "~/lib/domain/pricing";
import { vatOfGross } from "~/lib/domain/vat";
import { readBool, type DB } from "../db/db.server";
import type { OrderTable } from "../db/schema";
import { canManage } from "../access/item-access.repository.server";
import { invoiceRefusal, type InvoiceGuard, type InvoiceRefusal } from "./invoice-guard.repository.server";

export interface Order {
  id: string;
  userId: string;
  provider: Provider;
  status: OrderStatus;
  period: Period;
  lang: Lang;
  currency: Currency;
  count: number;
  unitAmount: number;
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  /** The shipping address the order was made with (null only for a damaged row). */
  address: Address | null;
  checkoutId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  paidAt: number | null;
  paidUntil: number | null;
  minimumUntil: number | null;
  renewing: boolean;
  endsAt: number | null;
  cancelledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** A renewal payment failed and no payment followed yet (decision 016). */
  paymentFailedAt: number | null;
  /** paidUntil the yearly renewal reminder was sent for. */
  reminderFor: number | null;
  /** The subscription ended unpaid or ran out: items made unpaid, owner told. */
  lapsedAt: number | null;
  /** The organisation whose scope the order was made in (null: personal); its admins see it. */
  organisationId: string | null;
  method: PaymentMethod;
  /** The provider's invoice (Stripe in_…; test: null), its number and page. */
  invoiceId: string | null;
  invoiceNumber: string | null;
  invoiceUrl: string | null;
  dueAt: number | null;
  voidedAt: number | null;
  /** The VAT in totalAmount (minor units). */
  vatAmount: number;
  /** No VAT: the buyer, a business in another EU member state, accounts for it. */
  reverseCharge: boolean;
  /** The buyer as invoiced (invoice orders). */
  invoiceTo: InvoiceBuyer | null;
  /** Decision 041: when the consumer asked for the service to start at once (null: not asked). */
  immediateStartAt: number | null;
  /** When the consumer withdrew from the order (ångerrätt), and the refund. */
  withdrawnAt: number | null;
  refundAmount: number | null;
  refundedAt: number | null;
  refundId: string | null;
  /**
   * Decision 036: an order placed ahead for prepaid items starts its first period then
   * (with Stripe: the subscription's trial end, the first charge); null: at payment.
   */
  startsAt: number | null;
  /** Decision 056: the card subscription, or one year paid at once with a one-time method. */
  paymentKind: PaymentKind;
  /** The paid-once order this order renews (null: a first order). */
  renewalOf: string | null;
  /** The provider's payment of a one-time order (Stripe pi_…; null: none yet, or the test provider). */
  paymentIntentId: string | null;
  /** Why a one-time payment did not go through (null: it did, or has not yet). */
  paymentFailure: PaymentFailure | null;
}

/** Why a one-time payment failed: the provider said so, the payer declined (test), or the checkout expired. */
export type PaymentFailure = "failed" | "declined" | "expired";

function toPaymentFailure(v: string | null | undefined): PaymentFailure | null {
  return v === "failed" || v === "declined" || v === "expired" ? v : null;
}

/** An organisation as its invoice names it, copied when the invoice is made. */
export interface InvoiceBuyer {
  name: string;
  orgNumber: string;
  email: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
  vatNumber: string | null;
}

function parseBuyer(json: string | null): InvoiceBuyer | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Partial<InvoiceBuyer> | null;
    if (!v || typeof v !== "object" || typeof v.name !== "string") return null;
    const str = (x: unknown) => (typeof x === "string" ? x : "");
    return {
      name: v.name,
      orgNumber: str(v.orgNumber),
      email: str(v.email),
      street: str(v.street),
      postcode: str(v.postcode),
      city: str(v.city),
      country: str(v.country),
      vatNumber: typeof v.vatNumber === "string" && v.vatNumber ? v.vatNumber : null,
    };
  } catch {
    return null;
  }
}

export const num = (v: number | null) => (v == null ? null : Number(v));

export function toOrder(row: Selectable<OrderTable>): Order {
  return {
    ...row,
    provider: toProvider(row.provider),
    status: toOrderStatus(row.status),
    period: toPeriod(row.period),
    lang: isLang(row.lang) ? row.lang : "en",
    currency: toCurrency(row.currency),
    count: Number(row.count),
    unitAmount: Number(row.unitAmount),
    packageAmount: Number(row.packageAmount),
    discountAmount: Number(row.discountAmount),
    totalAmount: Number(row.totalAmount),
    address: parseStoredAddress(row.adress),
    paidAt: num(row.paidAt),
    paidUntil: num(row.paidUntil),
    minimumUntil: num(row.minimumUntil),
    renewing: Number(row.renewing) === 1,
    endsAt: num(row.endsAt),
    cancelledAt: num(row.cancelledAt),
    paymentFailedAt: num(row.paymentFailedAt),
    reminderFor: num(row.reminderFor),
    lapsedAt: num(row.lapsedAt),
    organisationId: row.organisationId ?? null,
    method: toPaymentMethod(row.method),
    invoiceId: row.invoiceId ?? null,
    invoiceNumber: row.invoiceNumber ?? null,
    invoiceUrl: row.invoiceUrl ?? null,
    dueAt: num(row.dueAt),
    voidedAt: num(row.voidedAt),
    // Before migration 0016 every order carried 25 % Swedish VAT.
    vatAmount: row.vatAmount == null ? vatOfGross(Number(row.totalAmount)).vat : Number(row.vatAmount),
    reverseCharge: Number(row.reverseCharge) === 1,
    invoiceTo: parseBuyer(row.invoiceTo ?? null),
    immediateStartAt: num(row.immediateStartAt ?? null),
    withdrawnAt: num(row.withdrawnAt ?? null),
    refundAmount: num(row.refundAmount ?? null),
    refundedAt: num(row.refundedAt ?? null),
    refundId: row.refundId ?? null,
    startsAt: num(row.startsAt ?? null),
    paymentKind: toPaymentKind(row.paymentKind),
    renewalOf: row.renewalOf ?? null,
    paymentIntentId: row.paymentIntentId ?? null,
    paymentFailure: toPaymentFailure(row.paymentFailure),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

type OrderChanges = Partial<
  Omit<Order, "id" | "userId" | "address" | "renewing" | "reverseCharge" | "invoiceTo" | "organisationId">
> & {
  renewing?: boolean;
};

function toColumns(changes: OrderChanges): Updateable<OrderTable> {
  const { renewing, ...rest } = changes;
  return renewing === undefined ? rest : { ...rest, renewing: renewing ? 1 : 0 };
}

/**
 * Stores a new order with its lines. An invoice order (decisions 027, 028) is refused,
 * nothing stored, when one of its items is already on another open invoice (pending or
 * invoiced, not lapsed: a double submit or two admins at once), when the buyer has an
 * overdue or lapsed invoice staff have not cleared, or when it would put more than
 * `creditItems` items on credit before the buyer's first paid invoice. The buyer is the
 * organisation and every organisation with its number. Checks and insert are one
 * transaction under a lock per organisation number on PostgreSQL (pg_advisory_xact_lock),
 * so concurrent orders are counted one after the other; SQLite runs one write transaction
 * at a time.
 */
export async function insertOrder(
  db: DB,
  order: Order,
  itemIds: string[],
  guard: InvoiceGuard | null = null,
): Promise<InvoiceRefusal | null> {
  const { address, renewing, reverseCharge, invoiceTo, ...rest } = order;
  const row: Insertable<OrderTable> = {
    ...rest,
    adress: JSON.stringify(address),
    renewing: renewing ? 1 : 0,
    reverseCharge: reverseCharge ? 1 : 0,
    invoiceTo: invoiceTo ? JSON.stringify(invoiceTo) : null,
  };
  return db.transaction().execute(async (trx): Promise<InvoiceRefusal | null> => {
    const refused = await invoiceRefusal(trx, order, itemIds, guard);
    if (refused) return refused;
    await trx.insertInto("orders").values(row).execute();
    // In chunks: an order of all of a company's 5,000 items stays far below the databases'
    // limits on bound parameters.
    for (let i = 0; i < itemIds.length; i += 1000)
      await trx
        .insertInto("order_items")
        .values(itemIds.slice(i, i + 1000).map((itemId) => ({ orderId: row.id, productId: itemId })))
        .execute();
    return null;
  });
}

export async function findOrder(db: DB, id: string): Promise<Order | undefined> {
  const row = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toOrder(row);
}

export async function findOrderOfUser(db: DB, userId: string, id: string): Promise<Order | undefined> {
  const row = await db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row && toOrder(row);
}

/** The user's paid orders whose subscription still renews. */
export async function listRenewingOrdersOfUser(db: DB, userId: string): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where("userId", "=", userId)
    .where("status", "=", "paid")
    .where("renewing", "=", 1)
    .execute();
  return rows.map(toOrder);
}

/** The user's paid orders covering one item whose subscription still renews (item deletion, decision 017). */
export async function listRenewingOrdersOfItem(db: DB, userId: string, itemId: string): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .where("userId", "=", userId)
    .where("status", "=", "paid")
    .where("renewing", "=", 1)
    .where("lapsedAt", "is", null)
    .where("id", "in", db.selectFrom("order_items").select("orderId").where("productId", "=", itemId))
    .execute();
  return rows.map(toOrder);
}

/**
 * The user's pending orders (checkout started, not paid) covering one item become
 * cancelled (item deletion, decision 017): paying one later must not charge for an item that
 * is gone. Returns how many.
 */
export async function cancelPendingOrdersOfItem(db: DB, userId: string, itemId: string, now: number): Promise<number> {
  const r = await db
    .updateTable("orders")
    .set({ status: "cancelled", updatedAt: now })
    .where("userId", "=", userId)
    .where("status", "=", "pending")
    .where("id", "in", db.selectFrom("order_items").select("orderId").where("productId", "=", itemId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function findOrderBySubscription(db: DB, subscriptionId: string): Promise<Order | undefined> {
  const row = await db.selectFrom("orders").selectAll().where("subscriptionId", "=", subscriptionId).executeTakeFirst();
  return row && toOrder(row);
}

export function updateOrder(db: DB, id: string, changes: OrderChanges) {
  return db.updateTable("orders").set(toColumns(changes)).where("id", "=", id).execute();
}

export async function listOrderItemIds(db: DB, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom("order_items").select("productId").where("orderId", "=", orderId).execute();
  return rows.map((r) => r.productId);
}

/** The items of an order with their names (receipt, confirmation page). */
export function listItemsOfOrder(db: DB, orderId: string): Promise<Array<{ id: string; name: string }>> {
  return db
    .selectFrom("order_items")
    .innerJoin("products", "products.id", "order_items.productId")
    .select(["products.id", "products.name"])
    .where("order_items.orderId", "=", orderId)
    .orderBy("products.createdAt", "desc")
    .orderBy("products.id")
    .execute();
}

export interface PaidOrderItem {
  productId: string;
  orderId: string;
  period: Period;
  paidUntil: number | null;
  minimumUntil: number | null;
  renewing: boolean;
  endsAt: number | null;
  paymentFailed: boolean;
  /** A year paid at once (decision 056): no renewal, the owner renews it. */
  paidOnce: boolean;
}

/** Paid orders of a user with the items they cover (dashboard status per item). */
/** `itemIds`: only these items (one dashboard page), not all of a 5,000-item owner's. */
export async function listPaidOrderItemsOfUser(db: DB, userId: string, itemIds?: string[]): Promise<PaidOrderItem[]> {
  if (itemIds && itemIds.length === 0) return [];
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_items", "order_items.orderId", "orders.id")
    .select([
      "order_items.productId",
      "orders.id as orderId",
      "orders.period",
      "orders.paidUntil",
      "orders.minimumUntil",
      "orders.renewing",
      "orders.endsAt",
      "orders.paymentFailedAt",
      "orders.paymentKind",
    ])
    .where("orders.userId", "=", userId)
    .where("orders.status", "=", "paid")
    .where("orders.lapsedAt", "is", null)
    .$if(itemIds !== undefined, (q) => q.where("order_items.productId", "in", itemIds!))
    .execute();
  return rows.map((r) => ({
    productId: r.productId,
    orderId: r.orderId,
    period: toPeriod(r.period),
    paidUntil: num(r.paidUntil),
    minimumUntil: num(r.minimumUntil),
    renewing: Number(r.renewing) === 1,
    endsAt: num(r.endsAt),
    paymentFailed: r.paymentFailedAt != null,
    paidOnce: toPaymentKind(r.paymentKind) !== "subscription",
  }));
}

/** Records a provider event; false when it was already recorded (a replay). */
export async function recordPaymentEvent(
  db: DB,
  event: { id: string; type: string; orderId: string | null; receivedAt: number },
): Promise<boolean> {
  // The primary key makes "apply once" atomic across app instances.
  const inserted = await db
    .insertInto("payment_events")
    .values(event)
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export function insertShipment(
  db: DB,
  row: { id: string; orderId: string; userId: string; address: Address | null; createdAt: number },
) {
  const { address, ...rest } = row;
  return db
    .insertInto("sticker_shipments")
    .values({ ...rest, adress: JSON.stringify(address), status: "pending", shippedAt: null })
    .onConflict((oc) => oc.column("orderId").doNothing())
    .execute();
}

export interface PaymentItem {
  id: string;
  payed: boolean;
  paidUntil: number | null;
}

/**
 * The items an order is being created for, among those the user may manage (decision 026:
 * a personal item's owner, an organisation's admins, the assigned member) AND in the order's
 * scope: the organisation's own items for an organisation order (its invoice and its admins'
 * view cover nothing else), the user's personal items for a personal one.
 */
export async function listItemsForPayment(
  db: DB,
  userId: string,
  ids: string[],
  scope: string | null,
): Promise<PaymentItem[]> {
  return readPaymentItems(db, ids, { userId, scope });
}

/**
 * The items of an order being paid, renewed or extended: its own lines decide, whoever
 * manages them now (the payer may have left the organisation since the checkout; what was
 * paid for stays paid).
 */
export async function listOrderItemsForPayment(db: DB, ids: string[]): Promise<PaymentItem[]> {
  return readPaymentItems(db, ids, null);
}

async function readPaymentItems(
  db: DB,
  ids: string[],
  managedBy: { userId: string; scope: string | null } | null,
): Promise<PaymentItem[]> {
  const rows = [];
  // In chunks, like insertOrder: an order may hold every item of a 5,000-item owner.
  for (let i = 0; i < ids.length; i += 1000) {
    let q = db
      .selectFrom("products")
      .select(["id", "payed", "paidUntil"])
      .where("id", "in", ids.slice(i, i + 1000));
    if (managedBy !== null) {
      const { userId, scope } = managedBy;
      q = q.where(canManage(userId));
      q =
        scope === null
          ? q.where("organisationId", "is", null).where("owner", "=", userId)
          : q.where("organisationId", "=", scope);
    }
    rows.push(...(await q.execute()));
  }
  return rows.map((r) => ({ id: r.id, payed: Number(r.payed) === 1, paidUntil: num(r.paidUntil) }));
}

export function setItemPaid(
  db: DB,
  id: string,
  changes: { paidUntil: number | null; payment: Period; updatedAt: number },
) {
  return db
    .updateTable("products")
    .set({ payed: 1, paidUntil: changes.paidUntil, payment: changes.payment, updatedAt: changes.updatedAt })
    .where("id", "=", id)
    .execute();
}

/** The account the receipt goes to: only a verified email receives it (decision 012). */
export async function findUserForReceipt(
  db: DB,
  userId: string,
): Promise<{ email: string; emailVerified: boolean; name: string; language: string | null } | undefined> {
  const row = await db
    .selectFrom("user")
    .select(["email", "emailVerified", "name", "language"])
    .where("id", "=", userId)
    .executeTakeFirst();
  // better-auth's column: boolean on PostgreSQL, 0/1 on SQLite.
  return row && { ...row, emailVerified: readBool(row.emailVerified) };
}
