import { data, redirect } from "react-router";
import { isItemId } from "~/lib/domain/ids";
import { lostFormSchema } from "~/lib/domain/lost-mode";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import { scanErrors } from "~/server/scans/scans.http.server";
import { setItemLost } from "~/server/scans/scans.service.server";
import type { Route } from "./+types/item-lost";

/**
 * POST /product/{id}/lost — "Mark as lost" / "Found it" (decision 014), a plain form
 * from the dashboard card and the owner's item page; POST-redirect-GET back there. Only the
 * owner's item changes; anyone else gets 404 and nothing changes.
 */
export async function loader({ params }: Route.LoaderArgs) {
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  // Nothing to show here: a bookmarked or reloaded address goes to the item's page.
  throw redirect(`/product/${params.id}`);
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  // The dashboard's and the item page's buttons: no field to show a refusal beside.
  return formAction(
    request,
    { errors: scanErrors, errorsOn: "page" },
    {
      schema: lostFormSchema,
      invalidOn: "page",
      async handle(input) {
        await setItemLost(await getDeps(), user.ref, params.id, input.lost);
        return redirect(input.back === "dashboard" ? "/dashboard" : `/product/${params.id}`);
      },
    },
  );
}
