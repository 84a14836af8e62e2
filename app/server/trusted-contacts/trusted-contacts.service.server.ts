/**
 * Trusted contacts (decisions 040, 046): up to three people an account names (name, email
 * and/or mobile), and up to three an organisation's admins name for its desk. Each
 * address and number confirms on its own before it gets anything: the invitation
 * (invite.service) goes to one of them, the pages the contact opens (confirm.service)
 * confirm it and offer a code for the number; a stop holds for that address or number
 * whoever names them again (the suppression list, recipients.service). Per item the owner
 * may leave contacts out; a contact answers the finder through a private reply link
 * (reply.service). This module: the lists, removal, per-item choices, export and erasure.
 * No HTTP here (decision 011).
 */
import { formatPhone, maskEmail } from "~/lib/domain/phone";
import type { Deps } from "../service-deps.server";
import { listItemsOfOwner, listDeskItems } from "../access/items.repository.server";
import { findMembership, findOrganisation } from "../organisations/organisations.repository.server";
import { hasDpaAcceptance } from "../organisations/dpa.repository.server";
import { DPA_VERSION } from "~/lib/domain/dpa";
import { suppressedAmong } from "../recipients/recipients.service.server";
import { ServiceError } from "../service-error.server";
import * as repo from "./trusted-contacts.repository.server";
import { may } from "~/lib/domain/permissions";

export type ContactsErrorCode =
  | "name.invalid"
  | "email.invalid"
  | "phone.invalid"
  | "reach.missing"
  | "tooMany"
  | "rateLimited"
  | "notFound"
  | "dpaRequired"
  | "reply.invalid"
  | "code.invalid"
  | "code.wrong"
  | "code.expired"
  | "closed";
/** `params.count`: contacts allowed (tooMany), minutes to wait (rateLimited), tries left (code.wrong). */
export class ContactsError extends ServiceError<ContactsErrorCode> {}

/** Where one address or number of a contact stands: nothing before "confirmed" reaches it. */
export type ChannelState = "pending" | "confirmed" | "declined";

export interface ContactView {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  /** Null: not given. "declined": that address or number asked Hittad never to contact it. */
  emailState: ChannelState | null;
  phoneState: ChannelState | null;
  status: "pending" | "confirmed" | "stopped";
}

/** The contacts as their owner sees them, each address and number with its own state. */
async function viewsOf(db: Deps["db"], rows: repo.ContactRow[]): Promise<ContactView[]> {
  const declined = await suppressedAmong(
    { db },
    rows.flatMap((c) => [
      ...(c.email ? [{ channel: "email" as const, to: c.email }] : []),
      ...(c.phone ? [{ channel: "sms" as const, to: c.phone }] : []),
    ]),
  );
  const stateOf = (address: string | null, channel: "email" | "sms", confirmedAt: number | null) =>
    address === null ? null : declined(channel, address) ? "declined" : confirmedAt !== null ? "confirmed" : "pending";
  return rows.map((c) => {
    const emailState = stateOf(c.email, "email", c.emailConfirmedAt);
    const phoneState = stateOf(c.phone, "sms", c.phoneConfirmedAt);
    const states = [emailState, phoneState].filter((s) => s !== null);
    return {
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone ? formatPhone(c.phone) : null,
      emailState,
      phoneState,
      status:
        c.stoppedAt !== null || states.every((s) => s === "declined")
          ? "stopped"
          : states.includes("confirmed")
            ? "confirmed"
            : "pending",
    };
  });
}

export async function listContacts(deps: Pick<Deps, "db">, userId: string): Promise<ContactView[]> {
  return viewsOf(deps.db, await repo.listContacts(deps.db, userId));
}

/**
 * The organisation's name, if `userId` is one of its admins now; else ContactsError
 * notFound (as the organisation's other pages answer outsiders, and an admin who was
 * removed or stepped down).
 */
export async function requireDeskAdmin(
  deps: Pick<Deps, "db">,
  organisationId: string,
  userId: string,
): Promise<string> {
  const { db } = deps;
  const membership = await findMembership(db, organisationId, userId);
  const org = may(membership?.role, "organisation", "trustedContacts")
    ? await findOrganisation(db, organisationId)
    : undefined;
  if (!org) throw new ContactsError("notFound");
  return org.name;
}

/** Whether the organisation accepted the current data processing agreement (decision 030). */
export function deskDpaAccepted(deps: Pick<Deps, "db">, organisationId: string): Promise<boolean> {
  const { db } = deps;
  return hasDpaAcceptance(db, organisationId, DPA_VERSION);
}

/** An account's own contact only: a desk contact it named is the organisation's (removeDeskContact). */
export async function removeContact(deps: Pick<Deps, "db">, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteContact(deps.db, userId, id))) throw new ContactsError("notFound");
}

export interface ItemContactsView {
  items: { id: string; name: string; excluded: string[] }[];
}

/** Per item, which of the owner's contacts are left out (the form on /account/alerts). */
export async function listItemContactChoices(deps: Pick<Deps, "db">, userId: string, limit = 50) {
  const items = (await listItemsOfOwner(deps.db, userId)).slice(0, limit);
  const out: ItemContactsView["items"] = [];
  for (const item of items) {
    out.push({ id: item.id, name: item.name, excluded: await repo.listExcludedContactIds(deps.db, item.id) });
  }
  return out;
}

/** Saves the per-item choice: `chosen[itemId]` = the contacts who get that item's alerts. */
export async function saveItemContactChoices(
  deps: Pick<Deps, "db">,
  userId: string,
  chosen: Map<string, Set<string>>,
  itemIds: string[],
): Promise<void> {
  const contactIds = (await repo.listContacts(deps.db, userId)).map((c) => c.id);
  const own = new Set((await listItemsOfOwner(deps.db, userId)).map((p) => p.id));
  await saveExclusions(deps.db, contactIds, own, chosen, itemIds);
}

async function saveExclusions(
  db: Deps["db"],
  contactIds: string[],
  allowedItems: Set<string>,
  chosen: Map<string, Set<string>>,
  itemIds: string[],
) {
  await db.transaction().execute(async (trx) => {
    for (const itemId of itemIds) {
      if (!allowedItems.has(itemId)) continue;
      const keep = chosen.get(itemId) ?? new Set<string>();
      await repo.setExclusions(
        trx,
        itemId,
        contactIds,
        contactIds.filter((id) => !keep.has(id)),
      );
    }
  });
}

/** For the data export: the contacts an account named (their own data, given by the owner). */
export async function exportContacts(deps: Pick<Deps, "db">, userId: string) {
  const { db } = deps;
  const rows = await repo.listContacts(db, userId);
  const views = await viewsOf(db, rows);
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return rows.map((c, i) => ({
    name: c.name,
    email: c.email,
    phone: c.phone,
    status: views[i]!.status,
    addedAt: new Date(c.createdAt).toISOString(),
    confirmedAt: iso(c.confirmedAt),
    emailConfirmedAt: iso(c.emailConfirmedAt),
    phoneConfirmedAt: iso(c.phoneConfirmedAt),
  }));
}

export async function eraseContacts(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  const { db } = deps;
  await repo.deleteContactsOf(db, userId);
}

/** For labels: how a contact is reached, masked. */
export function contactReach(c: { email: string | null; phone: string | null }): string {
  return [c.email ? maskEmail(c.email) : null, c.phone].filter(Boolean).join(", ");
}

/**
 * The desk's contacts page: the organisation's name, whether its data processing agreement
 * is accepted (decision 030: no desk contact is named before), its contacts, and per desk
 * item who is left out.
 */
export async function getDeskContacts(deps: Pick<Deps, "db">, userId: string, organisationId: string, limit = 50) {
  const organisation = await requireDeskAdmin(deps, organisationId, userId);
  const contacts = await viewsOf(deps.db, await repo.listDeskContacts(deps.db, organisationId));
  const items: ItemContactsView["items"] = [];
  for (const item of await listDeskItems(deps.db, organisationId, limit)) {
    items.push({ id: item.id, name: item.name, excluded: await repo.listExcludedContactIds(deps.db, item.id) });
  }
  return { organisation, dpaAccepted: await deskDpaAccepted(deps, organisationId), contacts, items };
}

export async function removeDeskContact(deps: Pick<Deps, "db">, userId: string, organisationId: string, id: string) {
  await requireDeskAdmin(deps, organisationId, userId);
  if (!(await repo.deleteDeskContact(deps.db, organisationId, id))) throw new ContactsError("notFound");
}

/** Saves which desk contacts get each desk item's alerts (`chosen[itemId]`), as for an account. */
export async function saveDeskItemChoices(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
  chosen: Map<string, Set<string>>,
  itemIds: string[],
): Promise<void> {
  await requireDeskAdmin(deps, organisationId, userId);
  const contactIds = (await repo.listDeskContacts(deps.db, organisationId)).map((c) => c.id);
  const desk = new Set((await listDeskItems(deps.db, organisationId, 1000)).map((p) => p.id));
  await saveExclusions(deps.db, contactIds, desk, chosen, itemIds);
}
