/**
 * Staff look-up of a handed-in item (decision 030): someone hands a
 * found thing in to Hittad's staff, who type the sticker's code (or its id, or the URL
 * under the QR code) at /admin/lookup and see who owns it, to call or mail them. Every
 * look-up, found or not, is logged with who and when: owners' contact details are
 * personal data, and staff access to them must be accountable. The log is deleted after
 * RETENTION_MS.lookups (app/lib/domain/retention.ts) by the housekeeping job.
 */
import { isItemId, randomId } from "~/lib/domain/ids";
import { LOOKUP_QUERY_MAX } from "~/lib/domain/lookup";
import { isItemPaid } from "~/lib/domain/paid";
import { normalizeStickerCode } from "~/lib/domain/sticker-code";
import { ServiceError } from "../service-error.server";
import type { Deps } from "../service-deps.server";
import * as repo from "./lookup.repository.server";

export type LookupErrorCode = "query.invalid" | "notFound";
export class LookupError extends ServiceError<LookupErrorCode> {}

export type { LookedUpItem, LookupLogRow } from "./lookup.repository.server";

/** How many log rows the page shows. */
export const LOOKUP_LOG_SHOWN = 20;

/**
 * What staff typed, as a sticker code or an item id. Tolerant like /find: case, spaces,
 * dashes and dots do not matter for a code; an id may come as the sticker's URL
 * (https://…/AbCdE12345 or …/product/AbCdE12345).
 */
export function parseLookupQuery(typed: string): { code: string } | { id: string } | null {
  const trimmed = typed.trim();
  if (trimmed === "" || trimmed.length > 200) return null;
  const code = normalizeStickerCode(trimmed);
  if (code) return { code };
  const last =
    trimmed
      .replace(/[?#].*$/, "")
      .replace(/\/+$/, "")
      .split("/")
      .pop() ?? "";
  return isItemId(last) ? { id: last } : null;
}

/** Look an item up for a staff member and log it. Throws query.invalid or notFound. */
export async function lookupItem(
  { db, clock }: Pick<Deps, "db" | "clock">,
  staff: { id: string; email: string },
  typed: string,
): Promise<repo.LookedUpItem & { activeNow: boolean }> {
  const query = typed
    // eslint-disable-next-line no-control-regex -- control characters are never part of a code
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, LOOKUP_QUERY_MAX);
  const parsed = parseLookupQuery(typed);
  if (!parsed) throw new LookupError("query.invalid");
  const id = "code" in parsed ? await repo.findItemIdByCode(db, parsed.code) : await repo.findItemIdById(db, parsed.id);
  const item = id ? await repo.findItemForStaff(db, id) : null;
  await repo.insertLookup(db, {
    id: randomId(20),
    staffId: staff.id,
    staffEmail: staff.email,
    query,
    productId: item?.id ?? null,
    lookedUpAt: clock(),
  });
  if (!item) throw new LookupError("notFound");
  return { ...item, activeNow: item.active && isItemPaid(item, clock()) };
}

/** The latest look-ups, newest first, for the page's log. */
export function recentLookups({ db }: Pick<Deps, "db">): Promise<repo.LookupLogRow[]> {
  return repo.listLookups(db, LOOKUP_LOG_SHOWN);
}
