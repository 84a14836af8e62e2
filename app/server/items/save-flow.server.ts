/**
 * Spec section 4, save flow: save → /dashboard; pay now → remember the item as the one
 * being bought ('buy'), then /order when an address with an email is kept, else the
 * address form (which continues to /order).
 */
import type { DB } from "../db/db.server";
import { hasOrderAddressWithEmail, rememberBuy } from "../order-draft/order-draft.service.server";

export async function afterSave(db: DB, userId: string, productId: string, payNow: boolean): Promise<string> {
  if (!payNow) return "/dashboard";
  await rememberBuy(db, userId, productId);
  return (await hasOrderAddressWithEmail(db, userId)) ? "/order" : "/user/register-adress";
}
