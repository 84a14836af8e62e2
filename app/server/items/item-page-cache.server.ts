/**
 * Cache of the rendered finder page (/product/{id} and /{id}) for anonymous visitors.
 * Throughput bar of the brief (section 4); design in docs/decisions/009-performance.md.
 *
 * - Only anonymous requests whose cookies are at most the language and consent cookies
 *   are served from it; the key is path + language + consent.
 * - An entry is kept with the item's version (payed, paidUntil, updatedAt and "paid now").
 *   Saves in this process forget the item's pages at once (`deps.pageCache.forget`;
 *   the payment code calls it too). The end of the paid period is known from paidUntil and takes
 *   effect to the millisecond. A hit re-reads the version from the database when it was
 *   last checked more than VERSION_CHECK_MS ago, so a change made by another instance
 *   (or by code that forgot to call it) shows within those seconds. The
 *   items served are checked together in the background every VERSION_REFRESH_MS, so a
 *   page in demand is never that old and its hits need no query (decision 021).
 * - A per-response CSP nonce cannot be part of stored bytes, so a stored page carries no
 *   nonce: its inline scripts are allowed by their SHA-256 hashes instead (as strict as a
 *   nonce: only these exact scripts run). Bodies are stored gzip- and brotli-compressed.
 */
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { isItemId } from "~/lib/domain/ids";
import type { DB } from "../db/db.server";
import { findItemVersion, findItemVersions, type Item } from "../access/items.repository.server";
import { isItemPaid } from "~/lib/domain/paid";
import { logger } from "../logger.server";
import type { PageCache } from "../service-deps.server";
import { systemClock } from "../clock.server";

/** Cookies that may be present on a cacheable request (anything else renders afresh). */
const ALLOWED_COOKIES = new Set(["lang", "ConsentApproved"]);
const MAX_ENTRIES = 5000;
/** How long a checked version is trusted before the database is asked again. */
export const VERSION_CHECK_MS = 5000;
/**
 * How often the versions of the items served since the last time are read, together, in
 * the background (decision 021): well inside VERSION_CHECK_MS, so a page in demand is
 * always trusted when it is asked for and its hits need no database round trip.
 */
export const VERSION_REFRESH_MS = 2000;
/** Ids per query of the background check. */
const REFRESH_CHUNK = 500;

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
  /**
   * The page gzip-compressed, made the first time a client that takes no brotli asks:
   * phones all take brotli, and at a million stickers most pages are asked for once, so
   * compressing each miss twice was a third of its CPU (decision 045).
   */
  gzip?: Buffer;
  /**
   * The page brotli-compressed. A page made from its template (decision 045) is stored as
   * gzip only, joined to its template's compressed beginning at almost no cost; its brotli
   * copy is made the first time it is asked for again.
   */
  br?: Buffer;
}

/** The item id when `path` is a finder page, else null. */
export function itemIdOfPath(path: string): string | null {
  const m = /^\/(?:product\/)?([A-Za-z0-9]+)$/.exec(path);
  return m && isItemId(m[1]) ? m[1]! : null;
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
export async function itemPageVersion(db: DB, id: string, now = systemClock()): Promise<ItemPageVersion | null> {
  const row = await findItemVersion(db, id);
  return row ? pageVersionOf(row, now) : null;
}

/** The page's version of an item row (itemPageVersion without the read). */
export function pageVersionOf(row: Pick<Item, "payed" | "paidUntil" | "updatedAt">, now: number): ItemPageVersion {
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
  return { html: stripped, csp: withScriptHashes(csp, inlineScriptHashes(stripped)) };
}

/** CSP sources (sha256) of the inline scripts of `html`, in order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\bsrc=/.test(m[1]!)) continue;
    hashes.push(`'sha256-${createHash("sha256").update(m[2]!, "utf8").digest("base64")}'`);
  }
  return hashes;
}

/** `csp` with its script-src allowing the page's own files and these inline scripts only. */
export function withScriptHashes(csp: string, hashes: string[]): string {
  return csp.replace(/script-src [^;]*/, `script-src ${["'self'", ...hashes].join(" ")}`);
}

/** One runtime's cache (runtime.server.ts makes it; services reach it as `deps.pageCache`). */
export class ItemPageCache implements PageCache {
  private entries = new Map<string, CachedPage>();
  /** Items with a page served from here since the last background check. */
  private served = new Set<string>();

  key(path: string, lang: string, consent: boolean) {
    return `${path}|${lang}|${consent ? 1 : 0}`;
  }

  /** The stored page, or undefined; a page past its paid period is dropped. */
  get(key: string, now = systemClock()): CachedPage | undefined {
    const page = this.entries.get(key);
    if (page && now >= page.staleAt) {
      this.entries.delete(key);
      return undefined;
    }
    return page;
  }

  /** Stores a rendered page (or one already gzip-compressed) and returns it. */
  set(
    key: string,
    itemId: string,
    version: ItemPageVersion,
    headers: string[],
    html: string | { gzip: Buffer },
    now = systemClock(),
  ): CachedPage {
    // A template page's gzip comes from Buffer.concat, which cuts pages under half of
    // Buffer.poolSize (64 KB on Node 24) from a shared 64 KB slab: stored as it came, each
    // kept its slab alive (a heap snapshot of a soak's instance: 110 MB of slabs behind 1,765
    // pages, beside the 56 MB the cache's pages are). Stored as an exact copy, like the rest.
    const body =
      typeof html === "string" ? { br: brotliOf(Buffer.from(html, "utf8")) } : { gzip: exactCopy(html.gzip) };
    const page: CachedPage = {
      itemId,
      version: version.version,
      staleAt: version.staleAt,
      paid: version.paid,
      checkedAt: now,
      headers,
      ...body,
    };
    this.entries.delete(key);
    this.entries.set(key, page);
    // Oldest first out: Map keeps insertion order.
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return page;
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  /** The stored pages' compressed bytes (/metrics; a walk over at most MAX_ENTRIES). */
  storedBytes(): number {
    let bytes = 0;
    for (const page of this.entries.values()) bytes += (page.gzip?.byteLength ?? 0) + (page.br?.byteLength ?? 0);
    return bytes;
  }

  /** Notes that a page of the item was served: the next background check includes it. */
  markServed(itemId: string) {
    this.served.add(itemId);
  }

  /** The items served since the last call (and forgets them). */
  takeServed(): string[] {
    const ids = [...this.served];
    this.served.clear();
    return ids;
  }

  /**
   * Applies versions read from the database at `checkedAt` (read started then) for `ids`:
   * the pages of an item whose version is unchanged are trusted from `checkedAt` on; the
   * pages of a changed or deleted item are dropped (the next visit renders again).
   */
  applyVersions(ids: Iterable<string>, versions: Map<string, ItemPageVersion>, checkedAt: number) {
    const checked = new Set(ids);
    for (const [key, page] of this.entries) {
      if (!checked.has(page.itemId)) continue;
      const current = versions.get(page.itemId);
      if (!current || current.version !== page.version) this.entries.delete(key);
      else if (page.checkedAt < checkedAt) page.checkedAt = checkedAt;
    }
  }

  /** Drops every stored page of an item (both URLs, all languages). */
  forget(itemId: string) {
    for (const [key, page] of this.entries) if (page.itemId === itemId) this.entries.delete(key);
  }

  get size() {
    return this.entries.size;
  }

  /** The body for an Accept-Encoding header, and its Content-Encoding (none: identity). */
  static body(
    page: CachedPage,
    acceptEncoding: string | undefined,
    /** The answer to the miss that stored the page: its stored gzip rather than a brotli copy made now. */
    fresh = false,
  ): { body: Buffer; encoding?: string } {
    const accepted = acceptedEncodings(acceptEncoding);
    if (accepted.br && !(fresh && accepted.gzip && !page.br)) {
      page.br ??= brotliOf(gunzipSync(page.gzip!));
      return { body: page.br, encoding: "br" };
    }
    if (accepted.gzip) {
      page.gzip ??= exactCopy(gzipSync(brotliDecompressSync(page.br!), { level: 6 }));
      return { body: page.gzip, encoding: "gzip" };
    }
    // Rare (browsers all accept gzip): not worth keeping another copy of every page.
    return { body: page.br ? brotliDecompressSync(page.br) : gunzipSync(page.gzip!) };
  }
}

/**
 * `buf` in memory of its own size. zlib's sync calls answer a slice of their 64 KB output
 * chunk, and Buffer.concat answers a small result as a slice of Buffer's shared pool slab;
 * a slice keeps the whole chunk or slab alive: a 10 KB page kept that way held 64 KB, so
 * a full cache held about 300 MB per copy where its pages are 50 (decision 048's soak: RSS
 * rose by 200 MB and more while V8's heap stayed flat). Stored copies are made exact.
 */
export function exactCopy(buf: Buffer): Buffer {
  if (buf.buffer.byteLength === buf.length) return buf;
  const own = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(own);
  return own;
}

/** Brotli quality 5 of a page, in a Buffer of its own size. */
function brotliOf(raw: Buffer): Buffer {
  const br = brotliCompressSync(raw, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
      // A window the page's size (64 KB for a finder page) rather than 4 MB: the
      // encoder's setup is a good part of a miss (decision 045); the output is the
      // same or a few bytes smaller.
      [zlibConstants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(raw.length)))),
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  return exactCopy(br);
}

/**
 * The stored encoding to send for an Accept-Encoding header: brotli, then gzip, unless
 * the client refuses it with q=0 (RFC 9110 §12.5.3); "*" accepts both. Remembered per
 * header value: clients send a handful of distinct ones.
 */
export function encodingFor(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  const accepted = acceptedEncodings(acceptEncoding);
  return accepted.br ? "br" : accepted.gzip ? "gzip" : undefined;
}

/** Which of the stored encodings an Accept-Encoding header takes (see encodingFor). */
function acceptedEncodings(acceptEncoding: string | undefined): { br: boolean; gzip: boolean } {
  const header = acceptEncoding ?? "";
  let found = encodings.get(header);
  if (found === undefined) {
    const q = new Map<string, number>();
    for (const part of header.toLowerCase().split(",")) {
      const [name, ...params] = part.split(";").map((x) => x.trim());
      if (!name) continue;
      const qParam = params.find((p) => p.startsWith("q="));
      const value = qParam ? Number(qParam.slice(2)) : 1;
      q.set(name, Number.isFinite(value) ? value : 0);
    }
    const accepts = (name: string) => (q.get(name) ?? q.get("*") ?? 0) > 0;
    found = { br: accepts("br"), gzip: accepts("gzip") };
    if (encodings.size >= 1000) encodings.clear();
    encodings.set(header, found);
  }
  return found;
}
const encodings = new Map<string, { br: boolean; gzip: boolean }>();

/**
 * One background check: the versions of the items served since the last one, read in
 * a query per REFRESH_CHUNK ids, applied to their stored pages (decision 021).
 */
export async function refreshServedVersions(db: DB, cache: ItemPageCache, now = systemClock()) {
  const ids = cache.takeServed();
  for (let i = 0; i < ids.length; i += REFRESH_CHUNK) {
    const part = ids.slice(i, i + REFRESH_CHUNK);
    const rows = await findItemVersions(db, part);
    const versions = new Map<string, ItemPageVersion>();
    for (const [id, row] of rows) versions.set(id, pageVersionOf(row, now));
    cache.applyVersions(part, versions, now);
  }
}

/**
 * Starts the background check of `cache` every VERSION_REFRESH_MS (server start-up);
 * the returned function stops it (shutdown).
 */
export function startItemPageRefresh(db: DB, cache: ItemPageCache): () => void {
  let refreshing = false;
  const timer = setInterval(() => {
    // A slow database (a check still running) skips a turn: hits then check on their own.
    if (refreshing) return;
    refreshing = true;
    refreshServedVersions(db, cache)
      .catch((err: unknown) => {
        // Database trouble: pages older than VERSION_CHECK_MS are checked per request,
        // which answers with the app's 503 page while the database is down.
        logger.warn({ job: "page-cache", err: err instanceof Error ? err.message : String(err) }, "page check failed");
      })
      .finally(() => {
        refreshing = false;
      });
  }, VERSION_REFRESH_MS);
  timer.unref();
  return () => clearInterval(timer);
}
