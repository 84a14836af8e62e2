/**
 * The order page and an order's confirmation (decisions 008, 021 and 018): which items
 * the owner can order, which start selected, and an order as its payer sees it. No HTTP
 * here (decision 011).
 */
import { type Address } from "~/lib/domain/address";
import type { Currency } from "~/lib/domain/currency";
import { isItemPaid } from "~/lib/domain/paid";
import { PACKAGE_CODES, type PackageName, type Period } from "~/lib/domain/pricing";
import type { ItemType } from "~/lib/forms/product-form";
import type { Deps } from "../service-deps.server";
import {
  countItemsOfOwnerBy,
  findManagedItem,
  listItemsOfOwnerPage,
  type Item,
} from "../access/items.repository.server";
import {
  clampPage,
  NO_FILTER,
  ORDER_PAGE_SIZE,
  type ItemFilter,
  type ItemQuery,
  type PageInfo,
} from "~/lib/domain/item-filter";
import { getBuyItemId, getOrderAddress } from "../order-draft/order-draft.service.server";
import { findReceiptOfOrder } from "./billing.repository.server";
import { prepaidEnds } from "./order-ahead.server";
import { findUserForReceipt, listItemsOfOrder, type Order } from "./orders.repository.server";
import { requireOrderViewer } from "./order-access.server";

/** An item as the order page shows it. */
export interface OrderPageItem {
  id: string;
  name: string;
  prodType: ItemType;
  findFee: number;
  currency: Currency;
  paid: boolean;
  /** Paid items: until when (null = no end recorded). */
  paidUntil: number | null;
  /** Paid by a prepaid sticker, no order (decision 036): may be ordered ahead. */
  ahead: boolean;
}

export interface OrderPage {
  /** The site's origin, for the QR codes' text. */
  origin: string;
  /** One page (ORDER_PAGE_SIZE) of the owner's items matching the filter, newest first. */
  items: OrderPageItem[];
  /**
   * Unpaid items start selected (the remembered 'buy' item is one of them); with a package
   * chosen on the home page, as many as it has stickers, the 'buy' item first (decision 018).
   */
  preselected: string[];
  /** The package chosen on the home page, if any. */
  chosenPackage: PackageName | null;
  /**
   * Opened by "Save and pay now" (`?item=`, decision 051): that item alone is ticked,
   * listed first on whatever page, and the period starts as the item form's choice
   * (stored with the item). Null otherwise.
   */
  focus: { id: string; period: Period } | null;
  /** The remembered pay-now item, if it is still unpaid. */
  buy: string | null;
  address: Address | null;
  pageInfo: PageInfo;
  /** All the owner's items, whatever the filter (counted in SQL). */
  total: number;
  /** Unpaid items matching the filter, all pages: what "all unpaid" orders (counted in SQL). */
  unpaidMatching: number;
}

/**
 * The order page (decision 021): an owner with more items than one page gets a page
 * of them, a filter and the choice "all unpaid items (matching the filter)", so 5,000
 * items are ordered without ticking 5,000 boxes. Counts come from SQL, never from a page.
 */
export async function getOrderPage(
  deps: Pick<Deps, "db" | "config" | "clock">,
  userId: string,
  query: ItemQuery = { ...NO_FILTER, page: 1 },
  opts: { chosenPackage?: PackageName | null; organisationId?: string | null; focus?: string | null } = {},
): Promise<OrderPage> {
  const { db } = deps;
  const now = deps.clock();
  // The same items as the dashboard of the active scope (decision 022).
  const scope = { owner: userId, organisationId: opts.organisationId ?? null };
  const unpaidFilter = unpaidOf(query);
  const [counts, buy, address, focused] = await Promise.all([
    countItemsOfOwnerBy(db, scope, { matching: query, total: NO_FILTER, unpaidMatching: unpaidFilter ?? query }, now),
    getBuyItemId(deps, userId),
    getOrderAddress(deps, userId, opts.organisationId ?? null),
    focusedItem(deps, userId, scope.organisationId, opts.focus ?? null),
  ]);
  const { matching, total } = counts;
  const unpaidMatching = unpaidFilter ? counts.unpaidMatching : 0;
  const pageInfo = clampPage(query.page, matching, ORDER_PAGE_SIZE);
  const listed = await listItemsOfOwnerPage(db, scope, query, now, {
    limit: ORDER_PAGE_SIZE,
    offset: (pageInfo.page - 1) * ORDER_PAGE_SIZE,
  });
  // The item just saved is shown first, whatever the filter or page would have listed.
  const rows = focused ? [focused, ...listed.filter((r) => r.id !== focused.id)] : listed;
  const ahead = await prepaidEnds(db, rows, now);
  const items = rows.map((r) => {
    const paid = isItemPaid(r, now);
    return {
      id: r.id,
      name: r.name,
      prodType: r.prodType,
      findFee: r.findFee,
      currency: r.currency,
      paid,
      paidUntil: paid ? r.paidUntil : null,
      ahead: ahead.has(r.id),
    };
  });
  const unpaid = items.filter((i) => !i.paid).map((i) => i.id);
  const chosenPackage = opts.chosenPackage ?? null;
  const first = buy && unpaid.includes(buy) ? [buy, ...unpaid.filter((id) => id !== buy)] : unpaid;
  const preselected = focused ? [focused.id] : chosenPackage ? first.slice(0, PACKAGE_CODES[chosenPackage]) : unpaid;
  return {
    origin: deps.config.baseUrl.origin,
    items,
    preselected,
    chosenPackage,
    focus: focused ? { id: focused.id, period: focused.payment } : null,
    buy: buy && preselected.includes(buy) ? buy : null,
    address,
    pageInfo,
    total,
    unpaidMatching,
  };
}

/**
 * The item "Save and pay now" came from, when it may still be paid for here: one the user
 * manages, in the active scope, not paid now. Anything else (another's id, a paid item, an
 * item of another scope, a made-up id) is ignored and the page opens as from the menu.
 */
async function focusedItem(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  organisationId: string | null,
  id: string | null,
): Promise<Item | null> {
  if (!id) return null;
  const item = await findManagedItem(deps.db, userId, id);
  if (!item || item.organisationId !== organisationId || isItemPaid(item, deps.clock())) return null;
  return item;
}

/** The unpaid items among those a filter matches; null when it asks for paid ones only. */
export function unpaidOf(filter: ItemFilter): ItemFilter | null {
  return filter.paid === "paid" ? null : { ...filter, paid: "unpaid" };
}

/** An order as its owner sees it on the test checkout and confirmation pages. */
export interface OrderView {
  id: string;
  provider: Order["provider"];
  status: Order["status"];
  paid: boolean;
  period: Period;
  currency: Currency;
  count: number;
  /** Major units (kronor, euro). */
  packagePrice: number;
  discount: number;
  total: number;
  paidUntil: number | null;
  /** Where the receipt goes: the account's email when verified, else none is sent yet. */
  receiptTo: string | null;
  /**
   * Paid while the account's email is unverified: the address the receipt and order
   * confirmation will go to once it is verified (decision 051); null otherwise.
   */
  receiptWaitsFor: string | null;
  /** The first payment's receipt, to download at once (null: none yet). */
  receiptNumber: number | null;
  address: Address | null;
  items: Array<{ id: string; name: string }>;
  /** Decision 056: the card subscription or a year paid at once, and why such a payment failed. */
  paymentKind: Order["paymentKind"];
  paymentFailure: Order["paymentFailure"];
}

export async function toView(deps: Pick<Deps, "db">, order: Order): Promise<OrderView> {
  const [items, user, receipt] = await Promise.all([
    listItemsOfOrder(deps.db, order.id),
    findUserForReceipt(deps.db, order.userId),
    findReceiptOfOrder(deps.db, order.id, null, "first"),
  ]);
  return {
    id: order.id,
    provider: order.provider,
    status: order.status,
    paid: order.status === "paid",
    period: order.period,
    currency: order.currency,
    count: order.count,
    packagePrice: order.packageAmount / 100,
    discount: order.discountAmount / 100,
    total: order.totalAmount / 100,
    paidUntil: order.paidUntil,
    receiptTo: user?.emailVerified ? user.email : null,
    receiptWaitsFor: user && !user.emailVerified && order.status === "paid" ? user.email : null,
    receiptNumber: receipt?.number ?? null,
    address: order.address,
    items,
    paymentKind: order.paymentKind,
    paymentFailure: order.paymentFailure,
  };
}

/** The owner's order; another user's (or no) order is notFound alike. */
export async function getOrderView(deps: Pick<Deps, "db">, userId: string, orderId: string): Promise<OrderView> {
  return toView(deps, await requireOrderViewer(deps, userId, orderId, "payer"));
}
