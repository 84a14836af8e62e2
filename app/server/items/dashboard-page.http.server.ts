/**
 * The dashboard's buttons (decisions 008, 016, 017): cancel or resume the renewal of one of
 * the owner's orders, switch a sticker off or on; one intent each for intentAction
 * (decision 059). The page answers each on itself: a refusal is its alert with the status
 * of its code (a stranger's order or sticker: 404), never the error page.
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import { isItemId } from "~/lib/domain/ids";
import type { FormMessage } from "~/lib/forms/form";
import type { RouteDeps } from "../deps.server";
import { intent, intentAction, type Refusal } from "../http/form-action.server";
import { isOrderId, OrderError } from "../orders/order-error.server";
import { orderErrors } from "../orders/orders.http.server";
import { cancelRenewal, resumeRenewal } from "../orders/renewals.service.server";
import { itemErrors } from "./items.http.server";
import { ItemError, setItemActive } from "./items.service.server";

export type DashboardResult = {
  formError: FormMessage | null;
  /** The renewal cancelled: the date the order ends. */
  endsAt: number | null;
  /** A sticker switched off or on (decision 017). */
  switched?: "deactivated" | "reactivated";
};

/** Every refusal is the page's alert, with its status. */
const refused = (refusal: Refusal, init: ResponseInit) =>
  data<DashboardResult>({ formError: refusal.formError, endsAt: null }, { status: init.status });

// Optional: zod 4 refuses a missing key even of z.unknown(), and a form need not send them all.
const orderOf = z.object({ orderId: z.unknown().optional() });
const itemOf = z.object({ itemId: z.unknown().optional(), back: z.unknown().optional() });

export function dashboardAction(request: Request, deps: RouteDeps, userId: string) {
  /** A sticker switched off or on from the dashboard or from the owner's view of the item. */
  const switchTo = (active: boolean) =>
    intent({
      schema: itemOf,
      errors: itemErrors,
      async handle({ itemId, back }) {
        if (!isItemId(itemId)) throw new ItemError("notFound");
        await setItemActive(deps, userId, itemId, active);
        // From the owner's view of the item (decision 032: the one place to manage it):
        // POST-redirect-GET back there, which says what happened.
        if (back === "item") return redirect(`/product/${itemId}?switched=${active ? "on" : "off"}`);
        return data<DashboardResult>({
          formError: null,
          endsAt: null,
          switched: active ? "reactivated" : "deactivated",
        });
      },
    });
  // An order that is not one's own, or none, or a button the page does not have: "not found".
  const options = { errors: orderErrors, errorsOn: "form" as const, refused, otherwise: "other" };
  return intentAction(request, options, {
    // Cancel renewal (decision 008: minimum term 6 months; the dashboard links to the
    // confirmation page /order/{id}/cancel, this stays for old forms).
    cancelRenewal: intent({
      schema: orderOf,
      async handle({ orderId }) {
        if (!isOrderId(orderId)) throw new OrderError("notFound");
        const { endsAt } = await cancelRenewal(deps, { userId, orderId });
        return data<DashboardResult>({ formError: null, endsAt });
      },
    }),
    // Resume a cancelled renewal (decision 016).
    resumeRenewal: intent({
      schema: orderOf,
      async handle({ orderId }) {
        if (!isOrderId(orderId)) throw new OrderError("notFound");
        await resumeRenewal(deps, { userId, orderId });
        return redirect(`/dashboard?billing=resumed&order=${orderId}`);
      },
    }),
    deactivate: switchTo(false),
    reactivate: switchTo(true),
    other: intent({
      schema: z.object({}),
      handle(): never {
        throw new OrderError("notFound");
      },
    }),
  });
}
