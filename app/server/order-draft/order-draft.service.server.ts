/**
 * The spec keeps the order's address and the item being bought in local storage
 * ('adress', 'buy'). We keep them per user in order_drafts so they survive a cleared
 * browser and another device (brief section 1), and the /order page reads them here:
 *   - getOrderAddress: the address kept for the order, else the profile's saved one;
 *   - getBuyProductId: the item to preselect (pay-now).
 */
import { addressFromUser, parseStoredAddress, type Address } from "~/lib/address";
import type { SessionUser } from "~/lib/session-user";
import type { DB } from "../db/db.server";
import { findOrderDraft, findUserAdress, updateUserAdress, upsertOrderDraft } from "./order-draft.repository.server";

export async function getOrderAddress(db: DB, userId: string): Promise<Address | null> {
  const draft = await findOrderDraft(db, userId);
  return parseStoredAddress(draft?.adress) ?? parseStoredAddress(await findUserAdress(db, userId));
}

/** Prefill of the address form: kept address, else saved address, else from name and email. */
export async function getAddressPrefill(db: DB, user: SessionUser): Promise<Address> {
  return (await getOrderAddress(db, user.ref)) ?? addressFromUser(user.name, user.email);
}

/** Address form submit: always kept for the order; with `save` also stored on the profile. */
export async function keepOrderAddress(db: DB, userId: string, address: Address, save: boolean): Promise<void> {
  const json = JSON.stringify(address);
  await upsertOrderDraft(db, userId, { adress: json });
  if (save) await updateUserAdress(db, userId, json);
}

/** Whether pay-now can go straight to /order (spec: "a stored address has an email"). */
export async function hasOrderAddressWithEmail(db: DB, userId: string): Promise<boolean> {
  const address = await getOrderAddress(db, userId);
  return Boolean(address?.email.trim());
}

export async function rememberBuy(db: DB, userId: string, productId: string): Promise<void> {
  await upsertOrderDraft(db, userId, { buy: productId });
}

export async function getBuyProductId(db: DB, userId: string): Promise<string | null> {
  return (await findOrderDraft(db, userId))?.buy ?? null;
}
