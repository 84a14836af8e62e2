/**
 * Claimable stickers (decision 036): staff print batches before anyone owns
 * them; an owner claims one by its QR (id) or typed code and the new item takes the
 * sticker's id and code. No HTTP here (decision 011).
 */
import { randomUUID } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { newItemId } from "~/lib/domain/ids";
import { addMonths } from "~/lib/domain/pricing";
import { BATCH_LABEL_MAX, BATCH_MAX } from "~/lib/domain/sticker-batches";
import { newStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { ServiceError } from "../service-error.server";
import { rateLimits, type RateLimitResult, type RateRule } from "../rate-limit/rate-limit.server";
import { ItemError, type ItemInput } from "../access/item-error.server";
import { findManagedItem } from "../access/items.repository.server";
import { moveItemToNewId } from "../fulfil/fulfil.repository.server";
import * as repo from "./stickers.repository.server";
import type { Batch, Sticker } from "./stickers.repository.server";

export type { Batch, Sticker };

/**
 * batch.*: staff's batch form. claim.invalid: typed text that cannot be a code (empty, wrong
 * length or letters); refused before any look-up, so it costs no try. claim.notClaimable: a
 * code or id that is wrong, claimed or voided (one answer, so nobody learns which codes were
 * sold). claim.rateLimited: too many tries (params.count: minutes). org.notFound: claim mode
 * of an organisation the user is not an admin of (no difference shown from none).
 * file.invalid: an uploaded batch file that is not one (params.max: rows).
 * file.changed: a sticker of a confirmed batch file was claimed or voided since its preview.
 */
export type StickerErrorCode =
  | "batch.size"
  | "batch.prepaid"
  | "batch.label"
  | "batch.notFound"
  | "sticker.notVoidable"
  | "claim.invalid"
  | "claim.notClaimable"
  | "claim.alreadyYours"
  | "claim.rateLimited"
  | "org.notFound"
  | "file.invalid"
  | "file.changed";

export class StickerError extends ServiceError<StickerErrorCode> {}

export { BATCH_LABEL_MAX, BATCH_MAX };
export const PREPAID_MONTHS = [6, 12] as const;
export type PrepaidMonths = (typeof PREPAID_MONTHS)[number];
/** A sticker's id as printed in its QR (the shape of an item id). */
const STICKER_ID = /^[A-Za-z0-9]{10}$/;
/** Batches the staff list shows. */
export const BATCH_LIST_LIMIT = 200;

/** Claim attempts per signed-in user and per client IP: a wrong or taken code costs one. */
export const CLAIM_USER_RULE: RateRule = { name: "sticker-claim:user", limit: 10, windowMs: 15 * 60_000 };
export const CLAIM_IP_RULE: RateRule = { name: "sticker-claim:ip", limit: 10, windowMs: 15 * 60_000 };

export interface BatchInput {
  size: number;
  prepaidMonths: PrepaidMonths | null;
  label: string;
}

/** Staff print `size` stickers with fresh ids and codes no item, retired or other sticker holds. */
export async function createBatch(deps: Pick<Deps, "db" | "clock">, staffId: string, input: BatchInput) {
  if (!Number.isSafeInteger(input.size) || input.size < 1 || input.size > BATCH_MAX) {
    throw new StickerError("batch.size", { max: BATCH_MAX });
  }
  if (input.prepaidMonths !== null && !PREPAID_MONTHS.includes(input.prepaidMonths)) {
    throw new StickerError("batch.prepaid");
  }
  const label = input.label.trim();
  if (label.length > BATCH_LABEL_MAX) throw new StickerError("batch.label", { max: BATCH_LABEL_MAX });
  const stickers = await freshStickers(deps.db, input.size);
  const batch = {
    id: randomUUID(),
    label,
    size: input.size,
    prepaidMonths: input.prepaidMonths,
    createdBy: staffId,
    createdAt: deps.clock(),
  };
  await deps.db.transaction().execute((trx) => repo.insertBatch(trx, batch, stickers));
  return batch.id;
}

/** `n` ids and codes, unique among themselves and in the shared namespace (decision 036). */
async function freshStickers(db: Deps["db"], n: number): Promise<{ id: string; code: string }[]> {
  const ids = new Set<string>();
  const codes = new Set<string>();
  const out: { id: string; code: string }[] = [];
  for (let round = 0; out.length < n; round++) {
    if (round > 5) throw new Error("could not draw unique sticker ids");
    const draw: { id: string; code: string }[] = [];
    while (out.length + draw.length < n) {
      const s = { id: newItemId(), code: newStickerCode() };
      if (ids.has(s.id) || codes.has(s.code)) continue;
      ids.add(s.id);
      codes.add(s.code);
      draw.push(s);
    }
    const taken = await repo.takenIdsAndCodes(
      db,
      draw.map((s) => s.id),
      draw.map((s) => s.code),
    );
    out.push(...draw.filter((s) => !taken.has(s.id) && !taken.has(s.code)));
  }
  return out;
}

export function listBatches(deps: Pick<Deps, "db">) {
  return repo.listBatches(deps.db, BATCH_LIST_LIMIT);
}

export async function getBatch(deps: Pick<Deps, "db">, id: string): Promise<{ batch: Batch; stickers: Sticker[] }> {
  const batch = await repo.findBatch(deps.db, id);
  if (!batch) throw new StickerError("batch.notFound");
  return { batch, stickers: await repo.listBatchStickers(deps.db, id) };
}

/** Voids the batch's unclaimed stickers (lost stock); claimed ones stay with their items. */
export async function voidBatch(deps: Pick<Deps, "db" | "clock">, id: string): Promise<void> {
  if (!(await repo.findBatch(deps.db, id))) throw new StickerError("batch.notFound");
  await repo.voidBatch(deps.db, id, deps.clock());
}

/** Voids one unclaimed sticker of the batch, named by its id or its code as typed. */
export async function voidSticker(deps: Pick<Deps, "db" | "clock">, batchId: string, typed: string): Promise<void> {
  const value = typed.trim();
  const code = normalizeStickerCode(value);
  const s =
    (code ? await repo.findStickerByCode(deps.db, code) : undefined) ??
    (STICKER_ID.test(value) ? await repo.findStickerById(deps.db, value) : undefined);
  if (!s || !(await repo.voidSticker(deps.db, batchId, s.id, deps.clock()))) {
    throw new StickerError("sticker.notVoidable");
  }
}

/** What `/{id}` shows for an id that is a sticker, not an item: null when neither. */
export async function unclaimedStickerState(
  deps: Pick<Deps, "db">,
  id: string,
): Promise<{ state: "unclaimed" | "voided"; code: string } | null> {
  return repo.findUnclaimedStickerState(deps.db, id);
}

/** Who is claiming: the signed-in user and the client's IP, each limited. */
export interface Claimant {
  userId: string;
  ip: string;
}

/** A sticker by its QR id or its typed code (any case, spaces, dashes). */
export type StickerRef = { id: string } | { code: string };

export interface Claimable {
  id: string;
  code: string;
  prepaidMonths: number | null;
}

/**
 * Counts one try of the claim limits, per user and per IP, before anything is looked up
 * (decision 029); StickerError claim.rateLimited past either. `giveBack` undoes it.
 */
export async function countClaimAttempt(deps: Pick<Deps, "db" | "config" | "clock">, who: Claimant) {
  const limits = rateLimits(deps.config, deps.db);
  const now = deps.clock();
  const hits: [RateRule, string, RateLimitResult][] = [];
  for (const [rule, subject] of [
    [CLAIM_USER_RULE, who.userId],
    [CLAIM_IP_RULE, who.ip],
  ] as const) {
    const hit = await limits.hit(rule, subject, now);
    if (!hit.ok) {
      for (const [r, s, h] of hits) await limits.undo(r, s, h);
      throw new StickerError("claim.rateLimited", { count: hit.retryAfterMinutes });
    }
    hits.push([rule, subject, hit]);
  }
  return { giveBack: async () => Promise.all(hits.map(([r, s, h]) => limits.undo(r, s, h))) };
}

/**
 * The reference in canonical form, checked before any try is counted (decision 036: only
 * real look-ups cost one). Typed text that cannot be a code is the claimant's typing
 * mistake, said as such (claim.invalid); an id that cannot be an id (a mangled link) gets
 * the one answer. Neither tells anything about which codes were printed or sold.
 */
function canonicalRef(ref: StickerRef): { id: string } | { code: string } {
  if ("id" in ref) {
    if (!STICKER_ID.test(ref.id)) throw new StickerError("claim.notClaimable");
    return ref;
  }
  const code = normalizeStickerCode(ref.code);
  if (!code) throw new StickerError("claim.invalid");
  return { code };
}

/** The sticker of a reference canonicalRef returned. */
function lookUp(db: Deps["db"], ref: { id: string } | { code: string }): Promise<Sticker | undefined> {
  return "id" in ref ? repo.findStickerById(db, ref.id) : repo.findStickerByCode(db, ref.code);
}

/**
 * Whether the sticker can be claimed now (the claim form opens). Text that cannot be a
 * code is refused first and costs nothing; then one attempt is counted before the
 * look-up (decision 029: count, then check), and a claimable sticker gives it back, so
 * only wrong, claimed and voided ones cost. A sticker already claimed as an item the
 * claimant manages is `claim.alreadyYours` with the item's id (decision 052), and costs
 * nothing; to anyone else it is `claim.notClaimable`, like a wrong code, so codes cannot
 * be told apart by a stranger.
 */
export async function checkClaimable(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  ref: StickerRef,
): Promise<Claimable> {
  const canonical = canonicalRef(ref);
  const attempt = await countClaimAttempt(deps, who);
  const s = await lookUp(deps.db, canonical);
  if (s && s.claimedAt !== null && s.voidedAt === null && (await findManagedItem(deps.db, who.userId, s.id))) {
    await attempt.giveBack();
    throw new StickerError("claim.alreadyYours", { id: s.id });
  }
  if (!s || s.claimedAt !== null || s.voidedAt !== null) throw new StickerError("claim.notClaimable");
  await attempt.giveBack();
  return { id: s.id, code: s.code, prepaidMonths: s.prepaidMonths };
}

/**
 * Claims the sticker as a new item of `who.userId` (or of an organisation): one
 * transaction of the conditional update and the item's insert, so of two claims at once
 * exactly one makes an item (decision 036). A prepaid sticker's item is paid for its
 * months from now. Returns the item's id (the sticker's).
 */
export async function claimSticker(
  deps: Pick<Deps, "db" | "config" | "clock" | "createItem" | "events">,
  who: Claimant,
  ref: StickerRef,
  input: ItemInput,
  lang: Lang,
  organisationId: string | null = null,
  assignTo?: string | null,
): Promise<string> {
  const canonical = canonicalRef(ref);
  const attempt = await countClaimAttempt(deps, who);
  const s = await lookUp(deps.db, canonical);
  if (!s) throw new StickerError("claim.notClaimable");
  const now = deps.clock();
  const claimed = await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.markClaimed(trx, s.id, now))) return false;
    const paidUntil = s.prepaidMonths === null ? null : addMonths(now, s.prepaidMonths);
    await deps.createItem({ db: trx, clock: deps.clock }, who.userId, input, lang, organisationId, assignTo, {
      id: s.id,
      code: s.code,
      paidUntil,
    });
    await deps.events.emit("stickerClaimed", { itemId: s.id, code: s.code, at: now }, { ...deps, db: trx });
    return true;
  });
  if (!claimed) throw new StickerError("claim.notClaimable");
  await attempt.giveBack();
  return s.id;
}

/**
 * Of these canonical codes (a CSV import's, decision 036), the claimable stickers by code.
 * Every code that is wrong, claimed or voided counts one attempt against the claim limits,
 * as at /claim; past them StickerError claim.rateLimited and nothing is answered. Codes
 * that can be claimed cost nothing, so a whole batch imports at once.
 */
export async function claimableByCodes(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  codes: readonly string[],
): Promise<Map<string, Claimable>> {
  const found = new Map<string, Claimable>();
  if (codes.length === 0) return found;
  for (const s of await repo.findStickersByCodes(deps.db, codes)) {
    if (s.claimedAt === null && s.voidedAt === null) {
      found.set(s.code, { id: s.id, code: s.code, prepaidMonths: s.prepaidMonths });
    }
  }
  for (const code of codes) if (!found.has(code)) await countClaimAttempt(deps, who);
  return found;
}

/**
 * Claims these stickers inside the caller's transaction (the import's, decision 036),
 * before their items are inserted there. False when any was claimed or voided meanwhile:
 * the caller rolls the whole transaction back.
 */
export async function claimStickersIn(deps: Pick<Deps, "db">, ids: readonly string[], now: number): Promise<boolean> {
  const { db: trx } = deps;
  for (const id of ids) if (!(await repo.markClaimed(trx, id, now))) return false;
  return true;
}

/** The receipt-less record of a prepaid pack an item was claimed from (null: none). */
export async function prepaidRecordOfItem(
  deps: Pick<Deps, "db">,
  itemId: string,
): Promise<{ months: number; claimedAt: number; until: number } | null> {
  const s = await repo.findStickerOfItem(deps.db, itemId);
  if (!s || s.prepaidMonths === null || s.claimedAt === null) return null;
  return { months: s.prepaidMonths, claimedAt: s.claimedAt, until: addMonths(s.claimedAt, s.prepaidMonths) };
}

/**
 * Moves the owner's item onto a spare printed sticker they hold (decision 036): the
 * spare's id and code become the item's, and the old sticker answers 410 "replaced" as
 * after a replacement with a new code (decision 015). The spare is claimed by the same
 * conditional update as a claim, so it is used once; a wrong, claimed or voided code gets
 * the claim's one answer and counts against its limit. ItemError notFound when the item
 * is not the user's to manage.
 */
export async function moveOntoSpare(
  deps: Pick<Deps, "db" | "config" | "clock" | "events">,
  who: Claimant,
  itemId: string,
  typedCode: string,
): Promise<{ id: string }> {
  const item = await findManagedItem(deps.db, who.userId, itemId);
  if (!item) throw new ItemError("notFound");
  const canonical = canonicalRef({ code: typedCode });
  const attempt = await countClaimAttempt(deps, who);
  const s = await lookUp(deps.db, canonical);
  if (!s) throw new StickerError("claim.notClaimable");
  const now = deps.clock();
  const moved = await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.markClaimed(trx, s.id, now))) return false;
    await moveItemToNewId(trx, item.id, s.id, s.code, now);
    return true;
  });
  if (!moved) throw new StickerError("claim.notClaimable");
  await deps.events.emit("itemsChanged", { itemIds: [item.id] }, deps);
  await attempt.giveBack();
  return { id: s.id };
}
