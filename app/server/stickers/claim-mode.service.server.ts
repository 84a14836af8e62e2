/**
 * Claim mode (decision 036, "Organisations claim many"): an organisation's admin claims
 * printed stickers one code after another, as a scanner gun types them, each into a new
 * item of the organisation assigned to a member. The claim itself is claimSticker's (the
 * same conditional update, limits and prepaid activation); this module adds who may and
 * what the new item is. No HTTP here (decision 011).
 */
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { NAME_MAX } from "~/lib/product-form";
import { formatStickerCode, normalizeStickerCode } from "~/lib/sticker-code";
import type { Deps } from "../service-deps.server";
import { findMembership, findOrganisation, listMembers } from "../organisations/organisations.repository.server";
import { listOrganisationItemsByIds } from "./stickers.repository.server";
import { claimSticker, StickerError, type Claimant } from "./stickers.service.server";

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
  const organisation = membership?.role === "admin" ? await findOrganisation(db, organisationId) : undefined;
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
  deps: Pick<Deps, "db" | "config" | "clock">,
  who: Claimant,
  organisationId: string,
  input: ClaimModeInput,
  lang: Lang,
): Promise<{ id: string; code: string }> {
  const organisation = await requireAdmin(deps.db, who.userId, organisationId);
  // A code that cannot be one is refused by claimSticker (no try counted) before the name matters.
  const code = normalizeStickerCode(input.code) ?? "";
  const name =
    input.name.trim().slice(0, NAME_MAX) ||
    getT(lang)("organisations.claimMode.defaultName", { code: formatStickerCode(code) });
  const id = await claimSticker(
    deps,
    who,
    { code: input.code },
    {
      name,
      findFee: 0,
      prodType: "other",
      contactInfo: organisation.name,
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    lang,
    organisationId,
    input.assignTo,
  );
  return { id, code };
}
