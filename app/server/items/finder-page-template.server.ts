/**
 * The anonymous finder page as a template (decision 045, point 6): the page React Router
 * renders for an item, rendered once per shape with stand-in values (sentinels) in place of
 * the item's own, and cut at them. A miss of the page cache then fills the template with
 * the item's values, escaped as React escapes text, instead of running React Router and
 * React for a page that ships no framework. The markup and the strings stay in the route
 * and its components (one source of truth): the template is their output.
 *
 * A shape is everything that decides the page's markup: the language, the consent
 * cookie, the URL's form, the page's kind and, for an item, its type, lost mode, photo and
 * which contact it shows. The values are the item's texts and numbers, which only fill
 * text and attributes. The owner's contact text is the one value with markup of its own
 * (its links, ContactText): its HTML is rendered alone and put in place.
 */
import type { Lang } from "~/i18n/config";
import type { Currency } from "~/lib/domain/currency";
import { formatFee } from "~/lib/domain/fee";
import { ITEM_TYPES } from "~/lib/domain/item-types";
import { inlineScriptHashes } from "./item-page-cache.server";
import type { StickerAddressView } from "./sticker-address.service.server";

/** What a finder page shows: every sticker address's answer but the 410 of a replaced one. */
export type FinderView = Exclude<StickerAddressView, { kind: "replaced" }>;

/**
 * The stand-ins. Letters and digits only: React's escaping, encodeURIComponent and
 * i18next's interpolation leave them as they are. The id has an item id's shape (the
 * route checks it).
 */
const SENTINEL = {
  id: "Qz9tMpL8dQ",
  code: "Qz9tmplCodeQz",
  name: "Qz9tmplNameQz",
  desk: "Qz9tmplDeskQz",
  contact: "Qz9tmplContactQz",
  smallUrl: "Qz9tmplSmallUrlQz",
  smallWidth: "Qz9tmplSmallWQz",
  smallHeight: "Qz9tmplSmallHQz",
  mediumUrl: "Qz9tmplMediumUrlQz",
  mediumWidth: "Qz9tmplMediumWQz",
  fee: "Qz9tmplFeeQz",
} as const;
type Slot = keyof typeof SENTINEL;
const SLOT_OF = new Map<string, Slot>(Object.entries(SENTINEL).map(([slot, s]) => [s, slot as Slot]));
const SENTINEL_RE = new RegExp(Object.values(SENTINEL).join("|"), "g");
const ANY_SENTINEL = new RegExp(Object.values(SENTINEL).join("|"));
/** The fee is a number the page formats: the template's item has this one, in this currency. */
const FEE_AMOUNT = 987_654_321;
const FEE_CURRENCY: Currency = "SEK";

/** Codes and ids pass through encodeURIComponent unchanged only when they are these characters. */
const PLAIN = /^[A-Za-z0-9-]+$/;

/**
 * The shape of a finder page, or null when the page is not one a template may give (an
 * owner's view, a type the page does not know, a code that would be encoded in a link).
 */
export function templateKey(view: FinderView, lang: Lang, consent: boolean, shortUrl: boolean): string | null {
  const base = `${lang}|${consent ? 1 : 0}|${shortUrl ? "s" : "p"}|${view.kind}`;
  switch (view.kind) {
    case "inactive":
      return base;
    case "sticker":
      return PLAIN.test(view.code) ? `${base}|${view.state}` : null;
    case "notPaid":
      return PLAIN.test(view.code) ? `${base}|${view.canMessage ? 1 : 0}` : null;
    case "item": {
      if (view.isOwner || view.manage || view.ownerMustActivate || view.ownerDeactivated || !view.canMessage)
        return null;
      if (!PLAIN.test(view.code) || !(ITEM_TYPES as readonly string[]).includes(view.prodType)) return null;
      const contact = view.desk
        ? view.desk.contact === null
          ? "desk"
          : "deskContact"
        : view.contactInfo === null
          ? "none"
          : "contact";
      return `${base}|${view.prodType}|${view.lost ? 1 : 0}|${view.photo ? 1 : 0}|${contact}`;
    }
  }
}

/** The item id the template is rendered for (its page's URL holds it). */
export const TEMPLATE_ITEM_ID = SENTINEL.id;

/** `view` with the stand-ins in place of its values: the page the template is cut from. */
export function sentinelView(view: FinderView): FinderView {
  const asNumber = (s: string) => s as unknown as number;
  switch (view.kind) {
    case "inactive":
      return view;
    case "sticker":
      return { ...view, code: SENTINEL.code };
    case "notPaid":
      return { ...view, id: SENTINEL.id, code: SENTINEL.code };
    case "item":
      return {
        ...view,
        id: SENTINEL.id,
        code: SENTINEL.code,
        name: SENTINEL.name,
        findFee: FEE_AMOUNT,
        currency: FEE_CURRENCY,
        contactInfo: view.contactInfo === null ? null : SENTINEL.contact,
        desk: view.desk && {
          name: SENTINEL.desk,
          contact: view.desk.contact === null ? null : SENTINEL.contact,
        },
        lostAt: null,
        scans: [],
        photos: [],
        photo: view.photo && {
          ...view.photo,
          small: {
            ...view.photo.small,
            url: SENTINEL.smallUrl,
            width: asNumber(SENTINEL.smallWidth),
            height: asNumber(SENTINEL.smallHeight),
          },
          medium: { ...view.photo.medium, url: SENTINEL.mediumUrl, width: asNumber(SENTINEL.mediumWidth) },
        },
      };
  }
}

export interface FinderTemplate {
  /** The page's text between the values: parts.length = slots.length + 1. */
  parts: string[];
  slots: Slot[];
  /** CSP sources of the page's inline scripts (none of them holds a value). */
  scriptHashes: string[];
}

/**
 * Cuts the page rendered for `sentinelView(view)` (with `nonce` as the response's nonce)
 * into a template. Throws when a value landed where it cannot be filled (an inline script).
 */
export function cutTemplate(html: string, nonce: string): FinderTemplate {
  const page = html.split(` nonce="${nonce}"`).join("").split(formatFee(FEE_AMOUNT, FEE_CURRENCY)).join(SENTINEL.fee);
  const scriptHashes = inlineScriptHashes(page);
  for (const m of page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g))
    if (ANY_SENTINEL.test(m[1]!)) throw new Error("a finder page's inline script holds an item's value");
  const parts: string[] = [];
  const slots: Slot[] = [];
  let at = 0;
  for (const m of page.matchAll(SENTINEL_RE)) {
    parts.push(page.slice(at, m.index));
    slots.push(SLOT_OF.get(m[0])!);
    at = m.index + m[0].length;
  }
  parts.push(page.slice(at));
  return { parts, slots, scriptHashes };
}

const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
/** Text or an attribute value as React writes it into HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/["&'<>]/g, (c) => ESCAPES[c]!);
}

/**
 * The values of `view` in the template's slots, in order: the page is parts[0] + values[0] +
 * parts[1] + … (joined-gzip.server.ts joins them compressed). `contactHtml` is the owner's
 * (or the desk's) contact text as ContactText renders it.
 */
export function fillValues(
  template: FinderTemplate,
  itemId: string,
  view: FinderView,
  contactHtml: (text: string) => string,
): string[] {
  const values = slotValues(itemId, view, contactHtml);
  return template.slots.map((slot) => values[slot]);
}

function slotValues(itemId: string, view: FinderView, contactHtml: (text: string) => string): Record<Slot, string> {
  const values: Record<Slot, string> = {
    id: itemId,
    code: "",
    name: "",
    desk: "",
    contact: "",
    smallUrl: "",
    smallWidth: "",
    smallHeight: "",
    mediumUrl: "",
    mediumWidth: "",
    fee: "",
  };
  if (view.kind === "inactive") return values;
  values.code = view.code;
  if (view.kind !== "item") return values;
  values.name = escapeHtml(view.name);
  values.fee = escapeHtml(formatFee(view.findFee, view.currency));
  const contact = view.desk ? view.desk.contact : view.contactInfo;
  if (contact !== null) values.contact = contactHtml(contact);
  if (view.desk) values.desk = escapeHtml(view.desk.name);
  if (view.photo) {
    values.smallUrl = escapeHtml(view.photo.small.url);
    values.smallWidth = String(view.photo.small.width);
    values.smallHeight = String(view.photo.small.height);
    values.mediumUrl = escapeHtml(view.photo.medium.url);
    values.mediumWidth = String(view.photo.medium.width);
  }
  return values;
}
