/**
 * The dashboard (spec "Dashboard", decision 021): one page of the owner's items with
 * their subscriptions, filtered and counted in SQL. No HTTP here (decision 011).
 */
import type { Deps } from "../service-deps.server";
import { listItemSubscriptions, type ItemSubscription } from "../orders/renewals.service.server";
import { countItemsOfOwnerBy, listItemsOfOwnerPage } from "../access/items.repository.server";
import { listMembers } from "../organisations/organisations.repository.server";
import { prepaidOfferDue } from "~/lib/domain/prepaid";
import { prepaidEnds } from "../orders/order-ahead.server";
import { clampPage, DASHBOARD_PAGE_SIZE, NO_FILTER, type ItemQuery, type PageInfo } from "~/lib/domain/item-filter";

import { photosOfItems } from "../photos/photos.service.server";
import { toOwnedItem, type OwnedItem } from "./items.service.server";

/** A dashboard card: the item and, when paid, the subscription that covers it. */
export type DashboardItem = Omit<OwnedItem, "payment"> & {
  subscription: ItemSubscription | null;
  /** The typeable sticker code (canonical form). */
  code: string;
  /** An organisation item's assigned member, by name (else email); null: the organisation's own. */
  assignee: string | null;
  /** Paid without an order: a prepaid sticker (decision 036), active until then; else null. */
  prepaidUntil: number | null;
  /** Its last 30 days (decision 036): the card offers a subscription. */
  prepaidOffer: boolean;
};

export interface Dashboard {
  origin: string;
  /** One page of the owner's items matching the filter, newest first. */
  items: DashboardItem[];
  /** The page shown (clamped to the last), how many pages, how many items match. */
  pageInfo: PageInfo;
  /** All the owner's items, whatever the filter: counted in SQL, not from one page. */
  total: number;
  unpaid: number;
}

/**
 * The dashboard of an owner with any number of items (decision 021): one page of
 * DASHBOARD_PAGE_SIZE cards, filtered and counted in SQL; the subscriptions of that page only.
 */
export async function getDashboard(
  deps: Pick<Deps, "db" | "config" | "clock">,
  owner: string,
  query: ItemQuery = { ...NO_FILTER, page: 1 },
  /** The active organisation (decision 022): its items registered by this owner; null: personal items. */
  organisationId: string | null = null,
): Promise<Dashboard> {
  const { db } = deps;
  const now = deps.clock();
  const scope = { owner, organisationId };
  const counts = countItemsOfOwnerBy(
    db,
    scope,
    { matching: query, total: NO_FILTER, unpaid: { ...NO_FILTER, paid: "unpaid" } },
    now,
  );
  const pageOf = (page: number) =>
    listItemsOfOwnerPage(db, scope, query, now, {
      limit: DASHBOARD_PAGE_SIZE,
      offset: (page - 1) * DASHBOARD_PAGE_SIZE,
    });
  // The first page needs no count to clamp it: both at once (on PostgreSQL on two
  // connections; decision 042). A later page is clamped to the last one first.
  const [{ matching, total, unpaid }, firstPage] = await Promise.all([
    counts,
    query.page <= 1 ? pageOf(1) : Promise.resolve(null),
  ]);
  const pageInfo = clampPage(query.page, matching, DASHBOARD_PAGE_SIZE);
  const rows = firstPage ?? (await pageOf(pageInfo.page));
  const ids = rows.map((r) => r.id);
  // The page's small reads one after another: a request holds at most two of the pool's
  // connections at once.
  const subscriptions = await listItemSubscriptions(deps, owner, ids);
  const members = organisationId === null ? [] : await listMembers(db, organisationId);
  // The first photo of each card as its thumbnail (decision 035), private ones too:
  // the dashboard is the owner's.
  const photos = await photosOfItems(deps, ids, false);
  const prepaid = await prepaidEnds(db, rows, now);
  const names = new Map(members.map((m) => [m.userId, m.name || m.email]));
  const items = rows.map((row) => {
    const { payment: _payment, ...card } = toOwnedItem(row, now);
    // Paid items show their subscription: renews on …, or active until … after a cancel;
    // paid without one, the prepaid end of the sticker it was claimed from (decision 036).
    const subscription = card.paid ? (subscriptions[card.id] ?? null) : null;
    const prepaidUntil = prepaid.get(row.id) ?? null;
    return {
      ...card,
      code: row.code,
      subscription,
      prepaidUntil,
      prepaidOffer: prepaidOfferDue(prepaidUntil, now),
      assignee: row.assignedTo === null ? null : (names.get(row.assignedTo) ?? null),
      thumb: photos.get(row.id)?.[0]?.thumb ?? null,
    };
  });
  return { origin: deps.config.baseUrl.origin, items, pageInfo, total, unpaid };
}
