/**
 * Who may see and act on an order: one rule for every order route (decisions
 * 026, 027 and 028). No HTTP here (decision 011); the routes map OrderError.
 *
 * - A personal order: its owner only; everyone else notFound.
 * - An order made in an organisation's scope: only while one is a member of that
 *   organisation. Leaving or being removed ends access to its orders with the membership,
 *   the ex-member who paid included (notFound, as for outsiders).
 *   - `view` (invoice page, receipts): the organisation's admins and the member who placed
 *     it; other members forbidden.
 *   - `payer` (checkout, confirmation, cancel or resume renewal, manage payment): the
 *     member who placed it; everyone else notFound (a subscription is its payer's card).
 */
import type { Deps } from "../service-deps.server";
import { findMembership } from "../organisations/organisations.repository.server";
import { isOrderId, OrderError } from "./order-error.server";
import { findOrder, type Order } from "./orders.repository.server";
import { may } from "~/lib/domain/permissions";

export type OrderAccess = "view" | "payer";

export async function requireOrderViewer(
  deps: Pick<Deps, "db">,
  userId: string,
  orderId: string,
  access: OrderAccess = "view",
): Promise<Order> {
  const order = isOrderId(orderId) ? await findOrder(deps.db, orderId) : undefined;
  if (!order) throw new OrderError("notFound");
  const action = access === "payer" ? "pay" : "view";
  if (order.organisationId == null) {
    if (!may(order.userId === userId ? "owner" : null, "order", action)) throw new OrderError("notFound");
    return order;
  }
  const membership = await findMembership(deps.db, order.organisationId, userId);
  if (!membership) throw new OrderError("notFound");
  if (may(order.userId === userId ? "placer" : membership.role, "order", action)) return order;
  // A member who may not see it knows the organisation's orders exist; a payment is nobody else's.
  throw new OrderError(action === "pay" ? "notFound" : "forbidden");
}
