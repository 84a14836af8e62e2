/**
 * Claim mode (decision 036, "Organisations claim many"): an organisation's admin claims
 * printed stickers one code after another, as a scanner gun types them, each into a new
 * item of the organisation assigned to a member. The claim itself is claimSticker's (the
 * same conditional update, limits and prepaid activation); this module adds who may and
 * what the new item is. No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import {
  BATCH_FILE_MAX_BYTES,
  BATCH_FILE_REFUSED_SHOWN,
  type BatchFilePreview,
  type RefusedReason,
} from "~/lib/domain/claim-mode";

export type { BatchFilePreview };
import { addMonths } from "~/lib/domain/pricing";
import { NAME_MAX } from "~/lib/forms/product-form";
import { formatStickerCode, normalizeStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { findMembership, findOrganisation, listMembers } from "../organisations/organisations.repository.server";
import { ItemError, type ItemInput } from "../access/item-error.server";
import { findStickersByIds, listOrganisationItemsByIds } from "./stickers.repository.server";
import {
  BATCH_MAX,
  claimSticker,
  claimStickersIn,
  countClaimAttempt,
  StickerError,
  type Claimant,
} from "./stickers.service.server";
import { may } from "~/lib/domain/permissions";

/**
 * A claimed item's settings until someone edits it: relay-only contact (the finder writes;
 * the assignee or the desk's contacts answer), no hittelön, type "other" (decision 036).
 */
const ITEM_DEFAULTS: Omit<ItemInput, "name" | "contactInfo"> = {
  findFee: 0,
  prodType: "other",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

/** How many of the run's claimed items the page lists (the newest). */
export const CLAIM_RUN_SHOWN = 100;

export interface ClaimModeInput {
  /** The code as typed or scanned (any case, spaces, dashes). */
  code: string;
  /** The member the new item is assigned to; null: nobody (the organisation's desk). */
  assignTo: string | null;
  /** The new item's name; "" gives the default "Sticker K7M-29Q-XHR" in the admin's language. */
  name: string;
}

export interface ClaimModePage {
  organisation: { id: string; name: string };
  members: { id: string; label: string }[];
  /** Items of this run, newest first: only the organisation's own, whatever the URL lists. */
  claimed: { id: string; code: string; name: string }[];
}

/** The organisation's name if `userId` is one of its admins; StickerError org.notFound otherwise. */
async function requireAdmin(db: Deps["db"], userId: string, organisationId: string) {
  if (organisationId.length > 64) throw new StickerError("org.notFound");
  const membership = await findMembership(db, organisationId, userId);
  const organisation = may(membership?.role, "organisation", "claimStickers")
    ? await findOrganisation(db, organisationId)
    : undefined;
  if (!organisation) throw new StickerError("org.notFound");
  return { id: organisation.id, name: organisation.name };
}

/** The claim-mode page: the organisation, its members to assign to, and the run's items so far. */
export async function getClaimMode(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
  runIds: readonly string[],
): Promise<ClaimModePage> {
  const organisation = await requireAdmin(deps.db, userId, organisationId);
  const members = (await listMembers(deps.db, organisationId)).map((m) => ({
    id: m.userId,
    label: m.name || m.email,
  }));
  const ids = runIds.slice(-CLAIM_RUN_SHOWN);
  const found = new Map((await listOrganisationItemsByIds(deps.db, organisationId, ids)).map((i) => [i.id, i]));
  const claimed = ids
    .map((id) => found.get(id))
    .filter((i) => i !== undefined)
    .reverse();
  return { organisation, members, claimed };
}

/**
 * A chosen member must belong to the organisation, checked before a try is counted and the
 * sticker looked up: refused after the look-up, the answer would differ for an unclaimed
 * code and tell it apart from a claimed one (decision 036).
 */
async function requireAssignee(db: Deps["db"], organisationId: string, assignTo: string | null) {
  if (assignTo && !(await findMembership(db, organisationId, assignTo))) throw new ItemError("assigneeNotMember");
}

/** Whether `userId` may use claim mode of the organisation (StickerError org.notFound if not). */
export async function checkClaimModeAdmin(deps: Pick<Deps, "db">, userId: string, organisationId: string) {
  await requireAdmin(deps.db, userId, organisationId);
}

/**
 * Claims one printed sticker into the organisation: a new item of its scope, owned by the
 * admin as items they register there are, assigned to the chosen member (or nobody),
 * relay-only contact (the finder writes; the assignee or the desk's contacts answer), no
 * hittelön until someone sets one. Text that cannot be a code costs no try; a wrong,
 * claimed or voided code costs one and gets the one answer (claimSticker). Returns the
 * item's id (the sticker's).
 */
export async function claimIntoOrganisation(
  deps: Pick<Deps, "db" | "config" | "clock" | "createItem" | "events">,
  who: Claimant,
  organisationId: string,
  input: ClaimModeInput,
  lang: Lang,
): Promise<{ id: string; code: string }> {
  const organisation = await requireAdmin(deps.db, who.userId, organisationId);
  await requireAssignee(deps.db, organisationId, input.assignTo);
  // A code that cannot be one is refused by claimSticker (no try counted) before the name matters.
  const code = normalizeStickerCode(input.code) ?? "";
  const name =
    input.name.trim().slice(0, NAME_MAX) ||
    getT(lang)("organisations.claimMode.defaultName", { code: formatStickerCode(code) });
  const id = await claimSticker(
    deps,
    who,
    { code: input.code },
    { ...ITEM_DEFAULTS, name, contactInfo: organisation.name },
    lang,
    organisationId,
    input.assignTo,
  );
  return { id, code };
}

/** The id and code columns of a batch file (the staff's `id,code,url`), rows numbered as in a spreadsheet. */
function parseBatchFile(bytes: Uint8Array): { row: number; id: string; code: string }[] {
  if (bytes.byteLength === 0 || bytes.byteLength > BATCH_FILE_MAX_BYTES || bytes.includes(0)) {
    throw new StickerError("file.invalid", { max: BATCH_MAX });
  }
  const lines = new TextDecoder().decode(bytes).split(/\r\n|\n|\r/);
  const split = (line: string) =>
    line.split(/[;,\t]/).map((v) =>
      v
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .trim(),
    );
  const header = split(lines[0] ?? "").map((h) => h.toLowerCase());
  const idAt = header.indexOf("id");
  const codeAt = header.findIndex((h) => h === "code" || h === "kod");
  const rows = lines
    .map((line, i) => ({ row: i + 1, fields: split(line) }))
    .slice(1)
    .filter((r) => r.fields.some((f) => f !== ""))
    .map((r) => ({ row: r.row, id: r.fields[idAt] ?? "", code: r.fields[codeAt] ?? "" }));
  if (idAt < 0 || codeAt < 0 || rows.length === 0 || rows.length > BATCH_MAX) {
    throw new StickerError("file.invalid", { max: BATCH_MAX });
  }
  return rows;
}

/**
 * Sorts a batch file's rows: claimable, or refused as claimed, voided or unknown. A row is
 * a sticker only when its id and its code are the same sticker's, so saying which rows are
 * claimed or voided tells nothing to someone guessing codes (they would have to guess the
 * id as well); that is why a whole file costs one try, not one per row (decision 036).
 */
async function sortBatchRows(db: Deps["db"], rows: { row: number; id: string; code: string }[]) {
  const found = new Map((await findStickersByIds(db, [...new Set(rows.map((r) => r.id))])).map((s) => [s.id, s]));
  const preview: BatchFilePreview & { prepaidOf: Map<string, number | null> } = {
    claimable: [],
    prepaid: 0,
    counts: { claimed: 0, voided: 0, unknown: 0 },
    refused: [],
    prepaidOf: new Map(),
  };
  const seen = new Set<string>();
  for (const r of rows) {
    const s = found.get(r.id);
    const reason: RefusedReason | null =
      !s || s.code !== normalizeStickerCode(r.code)
        ? "unknown"
        : s.voidedAt !== null
          ? "voided"
          : s.claimedAt !== null
            ? "claimed"
            : null;
    if (reason === null) {
      // The same sticker twice in a file is claimed once.
      if (seen.has(s!.id)) continue;
      seen.add(s!.id);
      preview.claimable.push({ id: s!.id, code: s!.code });
      preview.prepaidOf.set(s!.id, s!.prepaidMonths);
      if (s!.prepaidMonths !== null) preview.prepaid++;
      continue;
    }
    preview.counts[reason]++;
    if (preview.refused.length < BATCH_FILE_REFUSED_SHOWN) {
      preview.refused.push({ row: r.row, code: r.code.slice(0, 20), reason });
    }
  }
  return preview;
}

/**
 * The preview of a batch file the staff gave the organisation: which stickers it would
 * claim and which rows are refused, nothing saved. One try of the claim limits per file.
 */
export async function previewBatchFile(
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  organisationId: string,
  bytes: Uint8Array,
): Promise<BatchFilePreview> {
  await requireAdmin(deps.db, who.userId, organisationId);
  const rows = parseBatchFile(bytes);
  await countClaimAttempt(deps, who);
  const { prepaidOf: _, ...preview } = await sortBatchRows(deps.db, rows);
  return preview;
}

/**
 * Claims every sticker the confirmed preview listed (`id code` pairs) into the
 * organisation, in one transaction: each the conditional update of a single claim and
 * the item's insert, named "Sticker K7M-29Q-XHR", assigned to the chosen member. When any
 * was claimed or voided since the preview, nothing is claimed (file.changed) and the admin
 * uploads the file again. One try, given back on success. Returns how many were claimed.
 */
export async function claimBatchFile(
  deps: Pick<Deps, "db" | "config" | "clock" | "createItem" | "events">,
  who: Claimant,
  organisationId: string,
  pairs: { id: string; code: string }[],
  assignTo: string | null,
  lang: Lang,
): Promise<number> {
  const organisation = await requireAdmin(deps.db, who.userId, organisationId);
  if (pairs.length === 0 || pairs.length > BATCH_MAX) throw new StickerError("file.invalid", { max: BATCH_MAX });
  await requireAssignee(deps.db, organisationId, assignTo);
  const attempt = await countClaimAttempt(deps, who);
  const sorted = await sortBatchRows(
    deps.db,
    pairs.map((p, i) => ({ row: i + 2, ...p })),
  );
  if (sorted.claimable.length !== pairs.length) throw new StickerError("file.changed");
  const now = deps.clock();
  const t = getT(lang);
  const claimed = await deps.db.transaction().execute(async (trx) => {
    if (
      !(await claimStickersIn(
        { db: trx },
        sorted.claimable.map((s) => s.id),
        now,
      ))
    )
      return false;
    for (const s of sorted.claimable) {
      const months = sorted.prepaidOf.get(s.id) ?? null;
      await deps.createItem(
        { db: trx, clock: deps.clock },
        who.userId,
        {
          ...ITEM_DEFAULTS,
          name: t("organisations.claimMode.defaultName", { code: formatStickerCode(s.code) }),
          contactInfo: organisation.name,
        },
        lang,
        organisationId,
        assignTo,
        { id: s.id, code: s.code, paidUntil: months === null ? null : addMonths(now, months) },
      );
      await deps.events.emit("stickerClaimed", { itemId: s.id, code: s.code, at: now }, { ...deps, db: trx });
    }
    return true;
  });
  if (!claimed) throw new StickerError("file.changed");
  await attempt.giveBack();
  return sorted.claimable.length;
}
