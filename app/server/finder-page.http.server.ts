/**
 * A finder page that misses the page cache, made from its template (decision 045, point 6;
 * app/server/items/finder-page-template.server.ts) instead of React Router's whole
 * request: the item's view is read as the route's loader reads it, the scan recorded as
 * it records it, and the page is the template React Router rendered for the page's shape,
 * filled with the item's values. The result is stored and sent as a hit is
 * (item-page-cache.http.server.ts). Anything the template does not cover (an item the
 * page cannot show, a flooded item, a replaced sticker, database trouble) returns null,
 * and the app renders the page as before.
 *
 * Headers: those of the first finder page the app rendered and stored since start-up (the
 * same for every lean finder page: security headers, Cache-Control, Content-Type), with
 * the CSP's script-src made of the template's own scripts. Until then, misses go to the app.
 */
import type { IncomingMessage } from "node:http";
import type { Lang } from "~/i18n/config";
import {
  cutTemplate,
  fillValues,
  sentinelView,
  templateKey,
  TEMPLATE_ITEM_ID,
  type FinderTemplate,
  type FinderView,
} from "./items/finder-page-template.server";
import {
  pageVersionOf,
  withScriptHashes,
  type CachedPage,
  type ItemPageCache,
  type ItemPageVersion,
} from "./items/item-page-cache.server";
import { itemPageViewOf } from "./items/items.service.server";
import { batchedFinderPageReads, type FinderPageReader } from "./items/finder-page-reads.server";
import { gzipJoined, gzipPart, type GzipPart } from "./items/joined-gzip.server";
import { logger } from "./logger.server";
import { isFloodedBy, RELAY_FLOOD_KEY_PREFIX } from "./relay/relay-limits.server";
import type { Runtime } from "./runtime.server";
import { scanLog } from "./scans/scan-log.server";
import { recordItemPageVisit } from "./scans/scans.service.server";

/** How the templates are rendered: React Router's handler and ContactText (server/finder-page-renderer.ts). */
export interface FinderPageRenderer {
  /** The page React Router renders at `path` for `view`, reading nothing, with `nonce` as its nonce. */
  page(path: string, lang: Lang, consent: boolean, view: FinderView, nonce: string): Promise<string>;
  /** ContactText's HTML of a contact text. */
  contact(text: string): string;
}

let renderer: FinderPageRenderer | null = null;
/** Set once the production build is loaded (server/app.ts); `npm run dev` has no cache and no templates. */
export function setFinderPageRenderer(next: FinderPageRenderer | null) {
  renderer = next;
  templates.clear();
}

let pageHeaders: string[] | null = null;
/** The headers of a finder page the app rendered and stored ([name, value, …], the CSP first). */
export function noteFinderPageHeaders(headers: string[]) {
  if (headers[0]?.toLowerCase() === "content-security-policy") pageHeaders = headers;
}

const TEMPLATE_NONCE = "Qz9tmplNonceQz";
/** Shapes are few (decision 045): this bound only guards against surprises. */
const MAX_TEMPLATES = 1000;

interface Prepared {
  template: FinderTemplate;
  /** The template's parts, each compressed once (a page stores its values between them). */
  gzipParts: GzipPart[];
  /** Headers of the pages made from it, its CSP first. */
  headers: string[];
}
const templates = new Map<string, Promise<Prepared | null>>();

/** Each database's reader: misses at the same moment share a read (finder-page-reads.server.ts). */
const readers = new WeakMap<Runtime["database"]["db"], FinderPageReader>();
function readerOf(db: Runtime["database"]["db"]): FinderPageReader {
  let reader = readers.get(db);
  if (!reader) readers.set(db, (reader = batchedFinderPageReads(db, RELAY_FLOOD_KEY_PREFIX)));
  return reader;
}

/**
 * The page of a cache miss made from its template and stored in `cache` under `key`, or
 * null when the app must render it.
 */
export async function finderPageMiss(
  rt: Runtime,
  req: IncomingMessage,
  miss: { itemId: string; key: string; lang: Lang; consent: boolean; cache: ItemPageCache },
): Promise<CachedPage | null> {
  const headers = pageHeaders;
  if (!renderer || !headers) return null;
  const { itemId, lang, consent } = miss;
  const deps = { db: rt.database.db, clock: rt.clock, config: rt.config };
  let view: FinderView;
  let version: ItemPageVersion;
  try {
    // One read for the page (finder-page.repository.server.ts), shared with the misses of
    // the same moment: the item, its photo, its organisation, its lapsed relay and its
    // flood counter; the page's version comes from the same row. A sticker address without
    // an item (a replaced or unclaimed sticker, a mistyped address) is the app's.
    const read = await readerOf(deps.db)(itemId);
    if (!read) return null;
    const now = deps.clock();
    version = pageVersionOf(read.item, now);
    view = await itemPageViewOf(deps, read.item, null, read);
    // Too many finder messages this hour (decision 029): the full app with its captcha.
    if (view.kind !== "inactive" && view.canMessage && isFloodedBy(deps.config, read.floodCounter, now)) return null;
  } catch {
    return null; // not found, or database trouble: the app answers
  }
  const shortUrl = !(req.url ?? "").startsWith("/product/");
  const key = templateKey(view, lang, consent, shortUrl);
  const prepared = key === null ? null : await templateOf(key, headers, shortUrl, lang, consent, view);
  if (!prepared || !renderer) return null;
  const gzip = gzipJoined(prepared.gzipParts, fillValues(prepared.template, itemId, view, renderer.contact));
  // Every view but a switched-off sticker's is a scan (the route's loader, decision 014).
  if (view.kind !== "inactive") {
    recordItemPageVisit(scanLog, {
      itemId,
      paid: view.kind === "item" && view.paid,
      isOwner: false,
      lang,
      userAgent: req.headers["user-agent"],
      at: rt.clock(),
    });
  }
  return miss.cache.set(miss.key, itemId, version, prepared.headers, { gzip });
}

function templateOf(
  key: string,
  headers: string[],
  shortUrl: boolean,
  lang: Lang,
  consent: boolean,
  view: FinderView,
): Promise<Prepared | null> {
  let prepared = templates.get(key);
  if (!prepared) {
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    prepared = makeTemplate(headers, shortUrl, lang, consent, view).catch((err: unknown) => {
      // Not retried: the shape's misses are rendered by the app, as before.
      logger.warn({ err, template: key }, "finder page template failed");
      return null;
    });
    templates.set(key, prepared);
  }
  return prepared;
}

async function makeTemplate(
  headers: string[],
  shortUrl: boolean,
  lang: Lang,
  consent: boolean,
  view: FinderView,
): Promise<Prepared | null> {
  if (!renderer) return null;
  const path = shortUrl ? `/${TEMPLATE_ITEM_ID}` : `/product/${TEMPLATE_ITEM_ID}`;
  const html = await renderer.page(path, lang, consent, sentinelView(view), TEMPLATE_NONCE);
  const template = cutTemplate(html, TEMPLATE_NONCE);
  const csp = withScriptHashes(headers[1]!, template.scriptHashes);
  const gzipParts = template.parts.map(gzipPart);
  return { template, gzipParts, headers: ["Content-Security-Policy", csp, ...headers.slice(2)] };
}
