import { useTranslation } from "~/i18n/react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import { isItemId } from "~/lib/domain/ids";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage, serviceErrorResponse } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { itemErrors } from "~/server/items/items.http.server";
import { deleteOwnedItem, getItemDeletion, ItemError } from "~/server/items/items.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import type { Route } from "./+types/item-delete";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "items", "orderErrors", "orders"] };

/**
 * /product/{id}/delete: the owner deletes one item (decision 017). The page asks first: what
 * goes with it, and for a paid item which subscription stops renewing, which other items it
 * covers and until when they stay active. Confirming posts here (no JavaScript needed) and
 * lands on the dashboard with a confirmation. Another user's item (or no item): 404.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "items.delete"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  if (!isItemId(params.id)) serviceErrorResponse(itemErrors, new ItemError("notFound"));
  return { preview: await orErrorPage(itemErrors, getItemDeletion(await getDeps(), user.ref, params.id)) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const deps = await getDeps();
  // A refusal of this item's delete (another payer's subscription, the provider refusing to
  // stop it: nothing was deleted) is said on the page; an item not found is the 404 page.
  return formAction(
    request,
    { errors: [itemErrors, orderErrors], values: () => ({}) },
    {
      schema: z.object({}),
      async handle() {
        if (!isItemId(params.id)) throw new ItemError("notFound");
        await deleteOwnedItem(deps, user.ref, params.id);
        return redirect("/dashboard", { headers: { "Set-Cookie": deps.cookies.flash("itemDeleted") } });
      },
    },
  );
}

export default function ProductDelete({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const { preview } = loaderData;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="delete-item-title">
      <h1 id="delete-item-title" className="text-break">
        {t("items.delete.title", { name: preview.name })}
      </h1>
      <FormAlert message={actionData?.formError ?? null} />
      <p className="lead">{t("items.delete.intro")}</p>
      <p>{t("items.delete.goes")}</p>
      {preview.endsSubscriptions.map((s) => (
        <div key={s.orderId} className="alert alert-warning delete-item-subscription">
          <p className="fw-semibold">{t("items.delete.endsRenewal")}</p>
          {s.otherCount > 0 ? (
            <>
              <p className="mb-1">
                {t("items.delete.otherItems", {
                  count: s.otherCount,
                  date: formatDate(s.endsAt, lang),
                })}
              </p>
              <ul className="text-break">
                {s.otherItems.map((i) => (
                  <li key={i.id}>{i.name}</li>
                ))}
                {s.otherCount > s.otherItems.length ? (
                  <li>{t("items.delete.moreItems", { count: s.otherCount - s.otherItems.length })}</li>
                ) : null}
              </ul>
            </>
          ) : null}
          <p className="mb-0">
            {s.atPeriodEnd
              ? t("items.delete.nothingMore", { date: formatDate(s.endsAt, lang) })
              : t("items.delete.minimumTerm", { date: formatDate(s.endsAt, lang) })}
          </p>
        </div>
      ))}
      {preview.paid && preview.endsSubscriptions.length === 0 ? (
        <p>
          {preview.paidUntil
            ? t("items.delete.paidNoRenewal", { date: formatDate(preview.paidUntil, lang) })
            : t("items.delete.paidNoEnd")}
        </p>
      ) : null}
      <p className="fw-semibold">{t("items.delete.final")}</p>
      <Form method="post" className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-danger" disabled={navigation.state === "submitting"}>
          {t("items.delete.confirm")}
        </button>
        <Link to="/dashboard" className="btn btn-outline-secondary">
          {t("items.delete.back")}
        </Link>
      </Form>
    </section>
  );
}
