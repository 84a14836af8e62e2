/**
 * The spec keeps the order's address and the item being bought in local storage
 * ('adress', 'buy'). We keep them per user in order_drafts so they survive a cleared
 * browser and another device (brief section 1), and the /order page reads them here:
 *   - getOrderAddress: the address kept for the order, else the profile's saved one;
 *   - getBuyItemId: the item to preselect (pay-now).
 */
import { addressFromUser, emptyAddress, parseStoredAddress, type Address } from "~/lib/domain/address";
import type { SessionUser } from "~/lib/domain/session-user";
import type { Deps } from "../service-deps.server";
import { findOrganisation } from "../organisations/organisations.repository.server";
import {
  findOrderDraft,
  findUserAdress,
  findUserEmail,
  updateUserAdress,
  upsertOrderDraft,
} from "./order-draft.repository.server";

/**
 * The kept address's scope (decision 038): an address kept on the form in an
 * organisation's scope carries that organisation's id and is used only there; one kept in
 * the personal scope carries none. One draft per user, so keeping one replaces the other.
 */
function keptScopeOf(json: string | null | undefined): string | null {
  try {
    const raw: unknown = JSON.parse(json ?? "null");
    const id = raw && typeof raw === "object" ? (raw as Record<string, unknown>).organisationId : null;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

/**
 * Where the stickers go. Personal scope: the address kept for the order, else the profile's
 * saved one. An organisation's scope (decision 038): the address kept for it, else the
 * organisation's own address with the organisation as recipient (a company's stickers go to
 * the company, not to the person who happens to order them) and the orderer's email.
 */
export async function getOrderAddress(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string | null = null,
): Promise<Address | null> {
  const draft = await findOrderDraft(deps.db, userId);
  const kept = keptScopeOf(draft?.adress) === organisationId ? parseStoredAddress(draft?.adress) : null;
  if (kept) return kept;
  if (organisationId) return organisationAddress(deps, userId, organisationId);
  return parseStoredAddress(await findUserAdress(deps.db, userId));
}

async function organisationAddress(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string,
): Promise<Address | null> {
  const org = await findOrganisation(deps.db, organisationId);
  if (!org) return null;
  return {
    ...emptyAddress(),
    firstname: org.name,
    address: org.invoiceStreet,
    zip: org.invoicePostcode,
    city: org.invoiceCity,
    country: org.invoiceCountry,
    email: (await findUserEmail(deps.db, userId)) ?? "",
  };
}

/** Prefill of the address form: the order's address in the scope, else from name and email. */
export async function getAddressPrefill(
  deps: Pick<Deps, "db">,
  user: Pick<SessionUser, "ref" | "name" | "email">,
  organisationId: string | null = null,
): Promise<Address> {
  return (await getOrderAddress(deps, user.ref, organisationId)) ?? addressFromUser(user.name, user.email);
}

/**
 * Address form submit: always kept for the order in the active scope; with `save` (the
 * personal scope only: a company's address is not the person's) also stored on the profile.
 */
export async function keepOrderAddress(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  address: Address,
  save: boolean,
  organisationId: string | null = null,
): Promise<void> {
  const json = JSON.stringify(organisationId ? { ...address, organisationId } : address);
  await upsertOrderDraft(deps.db, userId, { adress: json }, deps.clock());
  if (save && !organisationId) await updateUserAdress(deps.db, userId, JSON.stringify(address));
}

/** Whether pay-now can go straight to /order (spec: "a stored address has an email"). */
export async function hasOrderAddressWithEmail(
  deps: Pick<Deps, "db">,
  userId: string,
  organisationId: string | null = null,
): Promise<boolean> {
  const address = await getOrderAddress(deps, userId, organisationId);
  return Boolean(address?.email.trim());
}

export async function rememberBuy(deps: Pick<Deps, "db" | "clock">, userId: string, itemId: string): Promise<void> {
  await upsertOrderDraft(deps.db, userId, { buy: itemId }, deps.clock());
}

export async function getBuyItemId(deps: Pick<Deps, "db">, userId: string): Promise<string | null> {
  return (await findOrderDraft(deps.db, userId))?.buy ?? null;
}
