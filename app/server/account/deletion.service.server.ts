/**
 * What deleting an account would lose, said before it happens (decision 051), and the
 * consents the deletion then requires:
 * - purchases still inside their 14 days: the withdrawal is offered first, with its refund;
 *   deleting without it gives the refund up, so it needs its own tick (`forfeitRefunds`);
 * - organisations the person alone administers: with other members the deletion waits
 *   until another admin is named (decision 022); with none, the organisation is deleted
 *   with its items and their stickers, each listed, only with its own tick
 *   (`deleteOrganisations`).
 * No HTTP here (decision 011); the account service throws the refusals.
 */
import { isItemPaid } from "~/lib/domain/paid";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { listOpenWithdrawals, type OpenWithdrawal } from "../orders/withdrawal.service.server";
import { countItemsOfOrganisation, listItemsOfOrganisation, listSoleAdminships } from "./deletion.repository.server";

/** The delete page lists this many of an organisation's items (an organisation may have thousands). */
export const ORGANISATION_ITEMS_LISTED = 20;

export interface OrganisationOnDeletion {
  id: string;
  name: string;
  /** handOver: other members, the user their only admin (deletion waits); deleted: the user is its only member. */
  fate: "handOver" | "deleted";
  /** deleted: its items (the first ORGANISATION_ITEMS_LISTED by name), each with its sticker's code. */
  items: Array<{ id: string; name: string; code: string; active: boolean }>;
  itemCount: number;
}

export interface DeletionPreview {
  withdrawals: OpenWithdrawal[];
  organisations: OrganisationOnDeletion[];
}

export async function getDeletionPreview(deps: Pick<Deps, "db" | "clock">, userId: string): Promise<DeletionPreview> {
  const now = deps.clock();
  const organisations: OrganisationOnDeletion[] = [];
  for (const org of await listSoleAdminships(deps.db, userId)) {
    if (org.others > 0) {
      organisations.push({ id: org.id, name: org.name, fate: "handOver", items: [], itemCount: 0 });
      continue;
    }
    const [items, itemCount] = await Promise.all([
      listItemsOfOrganisation(deps.db, org.id, ORGANISATION_ITEMS_LISTED),
      countItemsOfOrganisation(deps.db, org.id),
    ]);
    organisations.push({
      id: org.id,
      name: org.name,
      fate: "deleted",
      items: items.map((i) => ({
        id: i.id,
        name: i.name,
        code: formatStickerCode(i.code),
        active: isItemPaid({ payed: i.paid, paidUntil: i.paidUntil }, now),
      })),
      itemCount,
    });
  }
  return { withdrawals: await listOpenWithdrawals(deps, userId), organisations };
}

export type DeletionRefusal = "lastOrganisationAdmin" | "organisationsNotConfirmed" | "refundsNotForfeited";

/**
 * Why the deletion may not go ahead with these ticks, or null. Only refunds that would
 * give money back need giving up (an order placed ahead on trial has none).
 */
export function deletionRefusal(
  preview: DeletionPreview,
  input: { forfeitRefunds: boolean; deleteOrganisations: boolean },
): { code: DeletionRefusal; organisations?: string } | null {
  const handOver = preview.organisations.filter((o) => o.fate === "handOver");
  if (handOver.length > 0)
    return { code: "lastOrganisationAdmin", organisations: handOver.map((o) => o.name).join(", ") };
  if (preview.organisations.length > 0 && !input.deleteOrganisations) return { code: "organisationsNotConfirmed" };
  if (preview.withdrawals.some((w) => w.refund > 0) && !input.forfeitRefunds) return { code: "refundsNotForfeited" };
  return null;
}
