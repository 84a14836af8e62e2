/**
 * Cache of the rendered finder page (/product/{id} and /{id}) for anonymous visitors.
 * Throughput bar of the brief (section 4); design in docs/decisions/009-performance.md.
 *
 * - Only anonymous requests whose cookies are at most the language and consent cookies
 *   are served from it; the key is path + language + consent.
 * - An entry is kept with the item's version (payed, paidUntil, updatedAt and "paid now").
 *   Saves in this process forget the item's pages at once (forgetItemPages; the payment
 *   code calls it too). The end of the paid period is known from paidUntil and takes
 *   effect to the millisecond. A hit re-reads the version from the database when it was
 *   last checked more than VERSION_CHECK_MS ago, so a change made by another instance
 *   (or by code that forgot to call forgetItemPages) shows within those seconds.
 * - A per-response CSP nonce cannot be part of stored bytes, so a stored page carries no
 *   nonce: its inline scripts are allowed by their SHA-256 hashes instead (as strict as a
 *   nonce: only these exact scripts run). Bodies are stored gzip- and brotli-compressed.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import { isProductId } from "~/lib/ids";
import type { DB } from "../db/db.server";
import { findProductVersion } from "./items.repository.server";
import { isItemPaid } from "~/lib/paid";

/** Cookies that may be present on a cacheable request (anything else renders afresh). */
const ALLOWED_COOKIES = new Set(["lang", "ConsentApproved"]);
const MAX_ENTRIES = 5000;
/** How long a checked version is trusted before the database is asked again. */
export const VERSION_CHECK_MS = 5000;

export interface CachedPage {
  itemId: string;
  version: string;
  checkedAt: number;
  /** When the page must be rendered again whatever the database says (end of the paid period). */
  staleAt: number;
  /** The page shows the paid item (a hit is a scan) rather than 'not paid'. */
  paid: boolean;
  /** Response headers as [name, value, name, value, …] (for writeHead). */
  headers: string[];
  gzip: Buffer;
  br: Buffer;
}

/** The item id when `path` is a finder page, else null. */
export function itemIdOfPath(path: string): string | null {
  const m = /^\/(?:product\/)?([A-Za-z0-9]+)$/.exec(path);
  return m && isProductId(m[1]) ? m[1]! : null;
}

/** Cookie names of a Cookie header, or null when one of them rules the cache out. */
export function cookiesAllowCache(header: string | undefined): boolean {
  if (!header) return true;
  for (const part of header.split(";")) {
    const name = part.slice(0, part.indexOf("=") >>> 0).trim();
    if (name && !ALLOWED_COOKIES.has(name)) return false;
  }
  return true;
}

export interface ItemPageVersion {
  version: string;
  /** The end of the paid period when the item is paid now (the page changes then). */
  staleAt: number;
  paid: boolean;
}

/** The item's version as far as its page is concerned; null when it does not exist. */
export async function itemPageVersion(db: DB, id: string, now = Date.now()): Promise<ItemPageVersion | null> {
  const row = await findProductVersion(db, id);
  if (!row) return null;
  const paid = isItemPaid(row, now);
  return {
    version: `${Number(row.payed)}|${row.paidUntil ?? ""}|${row.updatedAt}|${paid ? 1 : 0}`,
    staleAt: paid && row.paidUntil != null ? Number(row.paidUntil) : Number.POSITIVE_INFINITY,
    paid,
  };
}

/**
 * Turns a page rendered for one response into one that can be stored: removes the
 * response's nonce from the HTML and allows its inline scripts by hash in the CSP.
 */
export function toStorablePage(html: string, csp: string, nonce: string): { html: string; csp: string } {
  const stripped = html.split(` nonce="${nonce}"`).join("");
  const hashes: string[] = [];
  for (const m of stripped.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\bsrc=/.test(m[1]!)) continue;
    hashes.push(`'sha256-${createHash("sha256").update(m[2]!, "utf8").digest("base64")}'`);
  }
  const scriptSrc = ["'self'", ...hashes].join(" ");
  const newCsp = csp.replace(/script-src [^;]*/, `script-src ${scriptSrc}`);
  return { html: stripped, csp: newCsp };
}

export class ItemPageCache {
  private entries = new Map<string, CachedPage>();

  key(path: string, lang: string, consent: boolean) {
    return `${path}|${lang}|${consent ? 1 : 0}`;
  }

  /** The stored page, or undefined; a page past its paid period is dropped. */
  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.entries.get(key);
    if (page && now >= page.staleAt) {
      this.entries.delete(key);
      return undefined;
    }
    return page;
  }

  set(key: string, itemId: string, version: ItemPageVersion, headers: string[], html: string, now = Date.now()) {
    const raw = Buffer.from(html, "utf8");
    const page: CachedPage = {
      itemId,
      version: version.version,
      staleAt: version.staleAt,
      paid: version.paid,
      checkedAt: now,
      headers,
      gzip: gzipSync(raw, { level: 6 }),
      br: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
    };
    this.entries.delete(key);
    this.entries.set(key, page);
    // Oldest first out: Map keeps insertion order.
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  /** Drops every stored page of an item (both URLs, all languages). */
  forgetItem(itemId: string) {
    for (const [key, page] of this.entries) if (page.itemId === itemId) this.entries.delete(key);
  }

  get size() {
    return this.entries.size;
  }

  /** The body for an Accept-Encoding header, and its Content-Encoding (none: identity). */
  static body(page: CachedPage, acceptEncoding: string | undefined): { body: Buffer; encoding?: string } {
    const ae = acceptEncoding ?? "";
    if (/\bbr\b/.test(ae)) return { body: page.br, encoding: "br" };
    if (/\bgzip\b/.test(ae)) return { body: page.gzip, encoding: "gzip" };
    return { body: gunzipSync(page.gzip) };
  }
}

/** The process's cache of finder pages. */
export const itemPageCache = new ItemPageCache();

/** Call after changing an item (save, payment): its stored pages are rendered again. */
export function forgetItemPages(itemId: string) {
  itemPageCache.forgetItem(itemId);
}
