/**
 * The form that switches a sticker off or on (decision 017), posted from the dashboard and
 * from the owner's view of the item (decision 032): one intent each, for intentAction
 * (decision 059).
 */
import { redirect } from "react-router";
import { z } from "zod";
import { isItemId } from "~/lib/ids";
import type { RouteDeps } from "../deps.server";
import { intent } from "../http/form-action.server";
import { itemErrors } from "./items.http.server";
import { ItemError, setItemActive } from "./items.service.server";

const switchSchema = z.object({ itemId: z.unknown(), back: z.unknown() });

/**
 * "deactivate" and "reactivate": back to the item's page when posted from there, else the
 * dashboard's answer (what happened, no renewal ended).
 */
export function itemSwitchIntents(deps: RouteDeps, userRef: string) {
  const switchTo = (active: boolean) =>
    intent({
      schema: switchSchema,
      errors: itemErrors,
      async handle({ itemId, back }) {
        if (!isItemId(itemId)) throw new ItemError("notFound");
        await setItemActive(deps, userRef, itemId, active);
        // From the owner's view of the item: POST-redirect-GET back there, which says what happened.
        if (back === "item") return redirect(`/product/${itemId}?switched=${active ? "on" : "off"}`);
        const switched = active ? ("reactivated" as const) : ("deactivated" as const);
        return { formError: null, endsAt: null, switched };
      },
    });
  return { deactivate: switchTo(false), reactivate: switchTo(true) };
}
