/**
 * The spec keeps the order's address and the item being bought in local storage
 * ('adress', 'buy'). We keep them per user in order_drafts so they survive a cleared
 * browser and another device (brief section 1), and the /order page reads them here:
 *   - getOrderAddress: the address kept for the order, else the profile's saved one;
 *   - getBuyProductId: the item to preselect (pay-now).
 */
import { addressFromUser, parseStoredAddress, type Address } from "~/lib/address";
import type { SessionUser } from "~/lib/session-user";
import type { Deps } from "../service-deps.server";
import { findOrderDraft, findUserAdress, updateUserAdress, upsertOrderDraft } from "./order-draft.repository.server";

export async function getOrderAddress(deps: Pick<Deps, "db">, userId: string): Promise<Address | null> {
  const draft = await findOrderDraft(deps.db, userId);
  return parseStoredAddress(draft?.adress) ?? parseStoredAddress(await findUserAdress(deps.db, userId));
}

/** Prefill of the address form: kept address, else saved address, else from name and email. */
export async function getAddressPrefill(
  deps: Pick<Deps, "db">,
  user: Pick<SessionUser, "ref" | "name" | "email">,
): Promise<Address> {
  return (await getOrderAddress(deps, user.ref)) ?? addressFromUser(user.name, user.email);
}

/** Address form submit: always kept for the order; with `save` also stored on the profile. */
export async function keepOrderAddress(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  address: Address,
  save: boolean,
): Promise<void> {
  const json = JSON.stringify(address);
  await upsertOrderDraft(deps.db, userId, { adress: json }, deps.clock());
  if (save) await updateUserAdress(deps.db, userId, json);
}

/** Whether pay-now can go straight to /order (spec: "a stored address has an email"). */
export async function hasOrderAddressWithEmail(deps: Pick<Deps, "db">, userId: string): Promise<boolean> {
  const address = await getOrderAddress(deps, userId);
  return Boolean(address?.email.trim());
}

export async function rememberBuy(deps: Pick<Deps, "db" | "clock">, userId: string, productId: string): Promise<void> {
  await upsertOrderDraft(deps.db, userId, { buy: productId }, deps.clock());
}

export async function getBuyProductId(deps: Pick<Deps, "db">, userId: string): Promise<string | null> {
  return (await findOrderDraft(deps.db, userId))?.buy ?? null;
}
