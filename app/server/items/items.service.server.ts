/**
 * Rules for items (spec "Product form", "Dashboard", "Item page", sections 4 and 6).
 * No HTTP here (decision 011): routes call these after their guards and map the results.
 */
import type { Lang } from "~/i18n/config";
import { currencyForLang, type Currency } from "~/lib/domain/currency";
import { newItemId } from "~/lib/domain/ids";
import { newStickerCode } from "~/lib/domain/sticker-code";
import { isItemPaid } from "~/lib/domain/paid";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import type { ItemType } from "~/lib/forms/product-form";
import { DEFAULT_VISIBILITY, type ContactVisibility } from "~/lib/domain/relay";
import type { Deps } from "../service-deps.server";
import { ItemError, type ItemErrorCode, type ItemInput } from "../access/item-error.server";
import {
  listItemSubscriptions,
  renewalsEndedByDeletion,
  stopRenewalsOfItem,
  cancelPendingCheckoutsOfItem,
  type EndedByDeletion,
  type ItemSubscription,
} from "../orders/renewals.service.server";
import { forgetPhotoBytes, photoHashesOfItems, photosOfItems, photoViewOf } from "../photos/photos.service.server";
import {
  deleteManagedItem,
  findItemById,
  findManagedItem,
  idOrCodeTaken,
  insertItem,
  writeItemActive,
  updateManagedItem,
  type Item,
} from "../access/items.repository.server";
import { hasEarnedLapsedRelay } from "./lapsed-relay.repository.server";
import type { FinderPageRead } from "./finder-page.repository.server";
import { listPayersOfItem, mayManageItem } from "../access/item-access.repository.server";
import { stickerIdOrCodeTaken } from "../stickers/stickers.repository.server";
import { findMembership, findOrganisation, listMembers } from "../organisations/organisations.repository.server";
import { listRecentScans } from "../scans/scans.repository.server";
import { RECENT_SCANS, type ScanEntry } from "~/lib/domain/scans";
import type { PhotoView } from "~/lib/domain/photos";
import { prepaidOfferDue } from "~/lib/domain/prepaid";
import { prepaidEnds } from "../orders/order-ahead.server";
import { may } from "~/lib/domain/permissions";

// The items' error and input live at the bottom so the stickers can throw and build them (decision 053).
export { ItemError, type ItemErrorCode, type ItemInput };

/** What the owner sees of an item (dashboard, form). */
export type OwnedItem = Pick<
  Item,
  | "id"
  | "name"
  | "findFee"
  | "currency"
  | "prodType"
  | "contactInfo"
  | "contactVisibility"
  | "payment"
  | "scanAlerts"
  | "lastScannedAt"
  | "approxValue"
  | "organisationId"
  | "assignedTo"
> & {
  paid: boolean;
  /** False once the owner deactivated the sticker. */
  active: boolean;
  lost: boolean;
};

export function toOwnedItem(row: Item, now: number): OwnedItem {
  return {
    id: row.id,
    name: row.name,
    findFee: row.findFee,
    currency: row.currency,
    prodType: row.prodType,
    contactInfo: row.contactInfo,
    contactVisibility: row.contactVisibility,
    payment: row.payment,
    paid: isItemPaid(row, now),
    active: row.active,
    scanAlerts: row.scanAlerts,
    lost: row.lostAt !== null,
    lastScannedAt: row.lastScannedAt,
    approxValue: row.approxValue,
    organisationId: row.organisationId,
    assignedTo: row.assignedTo,
  };
}

/**
 * Whom an organisation item is assigned to when it is registered (decision 026): an admin
 * chooses (`requested`, undefined = nobody); a member's new item is their own, or they could
 * not manage what they just registered. A member naming anyone (even themselves) through a
 * forged field is refused: assigning is the admins'.
 */
async function assigneeOnCreate(
  db: Deps["db"],
  userId: string,
  organisationId: string,
  requested: string | null | undefined,
): Promise<string | null> {
  const me = await findMembership(db, organisationId, userId);
  if (!me) throw new ItemError("notFound");
  if (!may(me.role, "item", "assign")) {
    if (requested !== undefined) throw new ItemError("assignForbidden");
    return userId;
  }
  return requested ? await checkedAssignee(db, organisationId, requested) : null;
}

/** `memberId` if they are a member of the organisation now; ItemError assigneeNotMember otherwise. */
async function checkedAssignee(db: Deps["db"], organisationId: string, memberId: string): Promise<string> {
  if (!(await findMembership(db, organisationId, memberId))) throw new ItemError("assigneeNotMember");
  return memberId;
}

export async function createItem(
  deps: Pick<Deps, "db" | "clock">,
  owner: string,
  input: ItemInput,
  lang: Lang,
  /** Registered in an organisation's scope (decision 022); null: a personal item. */
  organisationId: string | null = null,
  /** An admin's choice of member for an organisation item (undefined: nobody). */
  assignTo?: string | null,
  /** A claimed sticker (decision 036): its id, code and prepaid end; run in the claim's transaction. */
  sticker?: { id: string; code: string; paidUntil: number | null },
): Promise<string> {
  const { db } = deps;
  const now = deps.clock();
  if (organisationId === null && assignTo !== undefined) throw new ItemError("assignForbidden");
  const assignedTo = organisationId === null ? null : await assigneeOnCreate(db, owner, organisationId, assignTo);
  for (let attempt = 0; ; attempt++) {
    const id = sticker?.id ?? newItemId();
    const code = sticker?.code ?? newStickerCode();
    // Unclaimed stickers share the namespace (decision 036); no constraint spans both tables.
    if (!sticker && attempt < 3 && (await stickerIdOrCodeTaken(db, id, code))) continue;
    try {
      await insertItem(db, {
        id,
        code,
        owner,
        organisationId,
        assignedTo,
        name: input.name,
        findFee: input.findFee,
        currency: currencyForLang(lang),
        prodType: input.prodType,
        contactInfo: input.contactInfo,
        contactVisibility: input.contactVisibility ?? DEFAULT_VISIBILITY,
        payment: input.payment,
        payed: sticker?.paidUntil != null,
        paidUntil: sticker?.paidUntil ?? null,
        scanAlerts: input.scanAlerts ?? false,
        approxValue: input.approxValue ?? null,
        createdAt: now,
        updatedAt: now,
        active: true,
      });
      return id;
    } catch (err) {
      // 62^10 ids and 31^9 codes make a collision practically impossible; retry once or
      // twice if it happens.
      if (sticker || attempt >= 2 || !(await idOrCodeTaken(db, id, code))) throw err;
    }
  }
}

/** An item the user may manage (decision 026); ItemError notFound for anything else. */
export async function getOwnedItem(deps: Pick<Deps, "db" | "clock">, owner: string, id: string): Promise<OwnedItem> {
  const row = await findManagedItem(deps.db, owner, id);
  if (!row) throw new ItemError("notFound");
  return toOwnedItem(row, deps.clock());
}

/**
 * Saves the owner's changes. A paid item's payment choice is hidden on the form and kept
 * as it is. ItemError notFound (nothing changed) when the id is not the owner's.
 * Returns the item as it was before (the save flow asks whether it was paid).
 */
export async function updateOwnedItem(
  deps: Pick<Deps, "db" | "clock" | "events">,
  owner: string,
  id: string,
  input: ItemInput,
  /**
   * An organisation item's new assignee (null: nobody); undefined leaves it. Only the
   * organisation's admins may change it (ItemError assignForbidden), and only to a member
   * (assigneeNotMember).
   */
  assignTo?: string | null,
): Promise<OwnedItem> {
  const before = await getOwnedItem(deps, owner, id);
  let assignedTo: string | null | undefined;
  if (assignTo !== undefined && assignTo !== before.assignedTo) {
    const org = before.organisationId;
    if (org === null || !may((await findMembership(deps.db, org, owner))?.role, "item", "assign")) {
      throw new ItemError("assignForbidden");
    }
    assignedTo = assignTo === null ? null : await checkedAssignee(deps.db, org, assignTo);
  }
  const updated = await updateManagedItem(deps.db, owner, id, {
    ...(assignedTo === undefined ? {} : { assignedTo }),
    name: input.name,
    findFee: input.findFee,
    prodType: input.prodType,
    contactInfo: input.contactInfo,
    contactVisibility: input.contactVisibility ?? before.contactVisibility,
    payment: before.paid ? before.payment : input.payment,
    scanAlerts: input.scanAlerts,
    // Private to the owner (decision 019); absent (callers outside the form) keeps it.
    approxValue: input.approxValue,
    updatedAt: deps.clock(),
  });
  if (!updated) throw new ItemError("notFound");
  await deps.events.emit("itemsChanged", { itemIds: [id] }, deps);
  return before;
}

/**
 * The owner deactivates (or reactivates) an item (decision 017): its finder page then says the
 * sticker is not active and shows no contact info. ItemError notFound when not theirs.
 */
export async function setItemActive(
  deps: Pick<Deps, "db" | "clock" | "events">,
  owner: string,
  id: string,
  active: boolean,
): Promise<void> {
  if (!(await writeItemActive(deps.db, owner, id, active, deps.clock()))) throw new ItemError("notFound");
  await deps.events.emit("itemsChanged", { itemIds: [id] }, deps);
}

/** What the delete confirmation shows (decision 017). */
export interface ItemDeletionPreview {
  id: string;
  name: string;
  paid: boolean;
  /** Paid items: until when (null = no end recorded). */
  paidUntil: number | null;
  /** Subscriptions that stop renewing when the item goes (empty when none renews). */
  endsSubscriptions: EndedByDeletion[];
}

/** ItemError notFound when the user may not manage the item. */
export async function getItemDeletion(
  deps: Pick<Deps, "db" | "clock">,
  owner: string,
  id: string,
): Promise<ItemDeletionPreview> {
  const row = await findManagedItem(deps.db, owner, id);
  if (!row) throw new ItemError("notFound");
  const paid = isItemPaid(row, deps.clock());
  return {
    id: row.id,
    name: row.name,
    paid,
    paidUntil: paid ? row.paidUntil : null,
    // Whoever paid for it (an organisation item may have been paid by another admin).
    endsSubscriptions: (
      await Promise.all(
        (await listPayersOfItem(deps.db, id)).map((payer) => renewalsEndedByDeletion(deps, payer, id, owner)),
      )
    ).flat(),
  };
}

/**
 * The owner deletes an item (decision 017). A subscription covering it stops renewing first,
 * exactly like "cancel renewal" (at the provider; never before the 6-month minimum term;
 * the order's other items stay active until it ends); if the provider refuses, OrderError
 * cancelFailed and nothing is deleted. Then the item goes with its scans, conversations,
 * replacement stickers and order lines, and its finder pages are forgotten at once: the
 * page, the short URL and the QR code answer 404. ItemError notFound when not theirs.
 */
export async function deleteOwnedItem(
  deps: Pick<Deps, "db" | "config" | "clock" | "payments" | "events" | "photos">,
  owner: string,
  id: string,
): Promise<{ name: string }> {
  const row = await findManagedItem(deps.db, owner, id);
  if (!row) throw new ItemError("notFound");
  const payers = await listPayersOfItem(deps.db, id);
  // Deleting ends the renewals of every order covering the item: another payer's (say the
  // admin's 500-item subscription) only an admin of the organisation may end that way.
  if (row.organisationId != null && payers.some((p) => p !== owner)) {
    const membership = await findMembership(deps.db, row.organisationId, owner);
    if (!may(membership?.role, "item", "endOthersRenewal")) {
      for (const payer of payers) {
        if (payer !== owner && (await renewalsEndedByDeletion(deps, payer, id)).length > 0) {
          throw new ItemError("deleteAdminOnly");
        }
      }
    }
  }
  for (const payer of payers) {
    await stopRenewalsOfItem(deps, payer, id);
    await cancelPendingCheckoutsOfItem(deps, payer, id);
  }
  // The photos' rows go with the item (ON DELETE CASCADE); their bytes right after.
  const photoHashes = await photoHashesOfItems(deps, [id]);
  const deleted = await deleteManagedItem(deps.db, owner, id);
  await deps.events.emit("itemsChanged", { itemIds: [id] }, deps);
  if (!deleted) throw new ItemError("notFound");
  await forgetPhotoBytes(deps, photoHashes);
  return { name: row.name };
}

/** The public item page's view: decided here so unpaid details never leave the server. */
export type ItemPageView =
  | { kind: "inactive" }
  /**
   * `id`: for the finder's hand-in link (decision 014). `canMessage`: the item was
   * paid once and its subscription lapsed: the relay stays (decision 019), the contact
   * info does not. `code`: the typeable sticker code, to quote when handing the item in.
   */
  | { kind: "notPaid"; id: string; code: string; isOwner: false; canMessage: boolean }
  | {
      kind: "item";
      id: string;
      /** The typeable sticker code (K7M-29Q-XHR), for the "Can't meet the owner?" section. */
      code: string;
      name: string;
      prodType: ItemType;
      findFee: number;
      currency: Currency;
      /**
       * null when the item is private and the viewer is not its owner (decision 013), and
       * always for an organisation item: its finder reaches the desk instead (decision 026).
       */
      contactInfo: string | null;
      /**
       * An organisation item (decision 026): the organisation's name and its
       * lost-and-found desk's contact text (null when the item's contact is private).
       */
      desk: { name: string; contact: string | null } | null;
      contactVisibility: ContactVisibility;
      /** Finders can write to the owner through the relay (paid items, viewer not the owner). */
      canMessage: boolean;
      isOwner: boolean;
      /** Owner viewing an unpaid item: show the 'not activated' warning. */
      ownerMustActivate: boolean;
      /** Owner viewing a deactivated item: finders see 'This sticker is not active'. */
      ownerDeactivated: boolean;
      paid: boolean;
      /** Lost mode: the page leads with the banner and the reward. */
      lost: boolean;
      lostAt: number | null;
      /** The owner's view only: the last scans, newest first. */
      scans: ScanEntry[];
      /** The owner's view only (null for anyone else): what the dashboard card no longer shows (decision 032). */
      manage: ItemManageView | null;
      /**
       * The first public photo (decision 035): what the finder sees. Never a private one, so
       * it cannot reach the finder page cache either.
       */
      photo: PhotoView | null;
      /** The owner's view only: every photo, private ones too, in order. */
      photos: PhotoView[];
    };

/**
 * What the owner's view of an item shows besides the finder's page (decision 032):
 * it is the one place to manage an item, so the dashboard card can stay small.
 */
export interface ItemManageView {
  /** The item's own contact text, also for an organisation item (whose finder sees the desk). */
  contactInfo: string;
  approxValue: number | null;
  /** False once switched off (decision 017). */
  active: boolean;
  subscription: ItemSubscription | null;
  /** Paid without an order: a prepaid sticker (decision 036), active until then; else null. */
  prepaidUntil: number | null;
  /** Its last 30 days (decision 036): the owner is offered a subscription. */
  prepaidOffer: boolean;
  organisationId: string | null;
  /** The assigned member's name (else email); null: nobody. */
  assignee: string | null;
  lastScannedAt: number | null;
}

async function manageViewOf(
  db: Deps["db"],
  viewerId: string,
  row: Item,
  paid: boolean,
  now: number,
): Promise<ItemManageView> {
  const [subscriptions, members] = await Promise.all([
    paid ? listItemSubscriptions({ db }, viewerId, [row.id]) : Promise.resolve({} as Record<string, ItemSubscription>),
    row.organisationId !== null && row.assignedTo !== null ? listMembers(db, row.organisationId) : Promise.resolve([]),
  ]);
  const member = members.find((m) => m.userId === row.assignedTo);
  const prepaidUntil = (await prepaidEnds(db, [row], now)).get(row.id) ?? null;
  return {
    contactInfo: row.contactInfo,
    approxValue: row.approxValue,
    active: row.active,
    subscription: subscriptions[row.id] ?? null,
    prepaidUntil,
    prepaidOffer: prepaidOfferDue(prepaidUntil, now),
    organisationId: row.organisationId,
    assignee: member ? member.name || member.email : null,
    lastScannedAt: row.lastScannedAt,
  };
}

/** ItemError notFound when there is no such item. */
export async function getItemPageView(
  deps: Pick<Deps, "db" | "clock" | "config">,
  id: string,
  viewerId: string | null,
): Promise<ItemPageView> {
  const row = await findItemById(deps.db, id);
  if (!row) throw new ItemError("notFound");
  return itemPageViewOf(deps, row, viewerId);
}

/**
 * getItemPageView of an item row already read. The finder page's template path (decision 045)
 * reads everything an anonymous view needs with the item (finder-page.repository.server.ts)
 * and gives it as `known`: then nothing more is read.
 */
export async function itemPageViewOf(
  deps: Pick<Deps, "db" | "clock" | "config">,
  row: Item,
  viewerId: string | null,
  known?: Omit<FinderPageRead, "item" | "floodCounter">,
): Promise<ItemPageView> {
  const paid = isItemPaid(row, deps.clock());
  // "Owner" here is whoever may manage the item (decision 026): the owner of a personal
  // item, an organisation's admins and the assigned member. Anonymous finders cost no query.
  const isOwner = viewerId !== null && (await mayManageItem(deps.db, viewerId, row.id));
  // A deactivated sticker shows finders nothing of the item (no contact info, no relay).
  if (!row.active && !isOwner) return { kind: "inactive" };
  if (!paid && !isOwner) {
    const canMessage = known ? known.earnedLapsedRelay : await hasEarnedLapsedRelay(deps.db, row.id);
    return { kind: "notPaid", id: row.id, code: formatStickerCode(row.code), isOwner: false, canMessage };
  }
  const visible = row.contactVisibility === "public" || isOwner;
  const photos = known
    ? known.photo && [photoViewOf(row.id, known.photo)]
    : (await photosOfItems(deps, [row.id], !isOwner)).get(row.id);
  const organisation = known
    ? known.organisation
    : row.organisationId === null
      ? undefined
      : await findOrganisation(deps.db, row.organisationId);
  return {
    kind: "item",
    id: row.id,
    code: formatStickerCode(row.code),
    name: row.name,
    prodType: row.prodType,
    findFee: row.findFee,
    currency: row.currency,
    // A private item's contact info never leaves the server for anyone but its owner: not
    // in the HTML, not in the route's .data, not in the finder-page cache.
    // An organisation item never shows the person's contact text, only the desk's.
    contactInfo: visible && row.organisationId === null ? row.contactInfo : null,
    desk: organisation ? { name: organisation.name, contact: visible ? organisation.deskContact : null } : null,
    contactVisibility: row.contactVisibility,
    canMessage: paid && !isOwner,
    isOwner,
    ownerMustActivate: !paid,
    ownerDeactivated: !row.active,
    paid,
    lost: row.lostAt !== null,
    lostAt: row.lostAt,
    scans: isOwner ? await listRecentScans(deps.db, row.id, RECENT_SCANS) : [],
    manage: isOwner ? await manageViewOf(deps.db, viewerId, row, paid, deps.clock()) : null,
    photo: photos?.find((p) => !p.private) ?? null,
    photos: isOwner ? (photos ?? []) : [],
  };
}
