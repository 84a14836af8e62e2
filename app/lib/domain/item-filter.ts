/**
 * The dashboard's and the order page's item filter (decision 021): search by name,
 * type, paid/unpaid, lost, and the page number, read from the query string of a plain GET
 * form (works without JavaScript). Browser-safe (no zod: the dashboard ships this module);
 * the loaders parse with item-query.ts. The screens build their page links with `filterQuery`. A value that is not one of the choices is ignored (a bookmarked or
 * hand-edited URL still shows the items), never a 500.
 */
import type { ItemType } from "./item-types";

/** Cards per dashboard page: the first page stays well under 100 KB of HTML. */
export const DASHBOARD_PAGE_SIZE = 24;
/** Rows per /order page (smaller rows than the dashboard's cards). */
export const ORDER_PAGE_SIZE = 50;
/** Longer search text is cut: names are at most 80 characters. */
export const SEARCH_MAX = 80;

export const PAID_FILTERS = ["paid", "unpaid"] as const;
export type PaidFilter = (typeof PAID_FILTERS)[number];

export interface ItemFilter {
  /** Part of the item's name; "" = any. */
  q: string;
  type: ItemType | null;
  paid: PaidFilter | null;
  /** Only items in lost mode. */
  lost: boolean;
}

export const NO_FILTER: ItemFilter = { q: "", type: null, paid: null, lost: false };

export interface ItemQuery extends ItemFilter {
  /** 1-based. */
  page: number;
}

export function isFiltered(f: ItemFilter): boolean {
  return f.q !== "" || f.type !== null || f.paid !== null || f.lost;
}

/** The query string of a filter and page ("" for the first page unfiltered), for links. */
export function filterQuery(f: ItemFilter, page: number): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.type) p.set("type", f.type);
  if (f.paid) p.set("paid", f.paid);
  if (f.lost) p.set("lost", "1");
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

export interface PageInfo {
  page: number;
  pageCount: number;
  /** Items matching the filter, all pages. */
  matching: number;
}

/** The page asked for, clamped to the last one (a stale ?page= after a filter change). */
export function clampPage(page: number, matching: number, pageSize: number): PageInfo {
  const pageCount = Math.max(1, Math.ceil(matching / pageSize));
  return { page: Math.min(page, pageCount), pageCount, matching };
}

/**
 * Which page numbers the pager shows: first, last and two either side of the current one;
 * null is a gap ("…"). Keeps the pager short at 200 pages.
 */
export function pagerPages(page: number, pageCount: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let p = 1; p <= pageCount; p++) {
    if (p === 1 || p === pageCount || Math.abs(p - page) <= 2) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}
