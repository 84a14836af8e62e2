import { useTranslation } from "~/i18n/react";
import { data, Link, redirect, useNavigation } from "react-router";
import { ProductForm } from "~/components/ProductForm";
import { isItemId } from "~/lib/domain/ids";
import { pageMeta } from "~/lib/domain/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { getItemEditPage } from "~/server/items/edit-page.service.server";
import { itemEditAction } from "~/server/items/item-form.http.server";
import { ItemError } from "~/server/items/items.service.server";
import { requestContext } from "~/server/context";
import { BODY_TOO_LARGE_MESSAGE } from "~/server/photos/photos.http.server";
import type { Route } from "./+types/item-edit";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "itemTypes", "items", "photos", "relay", "scans"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.edit");
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  // An action's Retry-After (the upload limit) travels with the page it renders.
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/");
  const deps = await getDeps();
  let page;
  try {
    page = await getItemEditPage(deps, user.ref, params.id);
  } catch (err) {
    if (!(err instanceof ItemError)) throw err;
    // Not the owner's (or no such id): the spec's alert 'Error load product', then /dashboard.
    throw redirect("/dashboard", {
      headers: { "Set-Cookie": deps.cookies.flash("errorLoadProduct") },
    });
  }
  // A POST over the photo form's body limit, rendered as this page (decision 035).
  if (context.get(requestContext).bodyTooLarge)
    return data({ ...page, tooLarge: BODY_TOO_LARGE_MESSAGE }, { status: 413 });
  return { ...page, tooLarge: null as typeof BODY_TOO_LARGE_MESSAGE | null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  // A forged POST for someone else's (or no) item: refused, nothing changed; 404 so the
  // answer does not tell whether the id exists.
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  const { photoUpload } = context.get(requestContext);
  return itemEditAction(request, { deps: await getDeps(), userId: user.ref, itemId: params.id, photoUpload });
}

export default function ProductEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <section className="py-4 col-lg-8">
      <h1>{t("items.form.titleEdit")}</h1>
      <ProductForm
        values={actionData?.values ?? loaderData.values}
        result={actionData ?? (loaderData.tooLarge ? { fieldErrors: {}, formError: loaderData.tooLarge } : undefined)}
        paid={loaderData.paid}
        currency={loaderData.currency}
        submitting={navigation.state === "submitting"}
        assignment={loaderData.assignment}
        photos={{ itemId: loaderData.id, name: loaderData.values.name, list: loaderData.photos }}
      />
      <p className="mt-4">
        <Link to={`/product/${loaderData.id}/delete`} className="btn btn-outline-danger">
          {t("items.delete.link")}
        </Link>
      </p>
    </section>
  );
}
