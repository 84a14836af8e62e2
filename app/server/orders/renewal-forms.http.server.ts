/**
 * The dashboard's renewal buttons (decisions 008, 016): cancel the renewal of one of the
 * owner's orders, or resume a cancelled one; one intent each, for intentAction (decision 059).
 * The dashboard links to the confirmation page /order/{id}/cancel; these stay for old forms.
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import type { FormMessage } from "~/lib/form";
import type { RouteDeps } from "../deps.server";
import { intent } from "../http/form-action.server";
import { isOrderId, OrderError } from "./order-error.server";
import { cancelRenewal, resumeRenewal } from "./renewals.service.server";

/** The dashboard's answer to its forms: a refusal, a renewal that ends, a sticker switched. */
export type DashboardResult = {
  formError: FormMessage | null;
  endsAt: number | null;
  /** A sticker switched off or on (decision 017). */
  switched?: "deactivated" | "reactivated";
};

/** Every refusal on the dashboard's alert, nothing else of the form (it has no fields to refill). */
export const dashboardRefusal = (refusal: { formError: FormMessage | null }, init: ResponseInit) =>
  data<DashboardResult>({ formError: refusal.formError, endsAt: null }, init);

export function renewalIntents(deps: RouteDeps, userId: string) {
  const renewal = (resume: boolean) =>
    intent({
      schema: z.object({ orderId: z.unknown() }),
      async handle({ orderId }) {
        if (!isOrderId(orderId)) throw new OrderError("notFound");
        if (resume) {
          await resumeRenewal(deps, { userId, orderId });
          return redirect(`/dashboard?billing=resumed&order=${orderId}`);
        }
        const { endsAt } = await cancelRenewal(deps, { userId, orderId });
        return data<DashboardResult>({ formError: null, endsAt });
      },
    });
  return {
    resumeRenewal: renewal(true),
    cancelRenewal: renewal(false),
    // Any other intent: the order is not one of the owner's (as a forged id would be).
    none: intent({ schema: z.object({}), handle: () => Promise.reject(new OrderError("notFound")) }),
  };
}
