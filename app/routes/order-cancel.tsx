import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import type { FormMessage } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { cancelRenewal, getCancelPreview } from "~/server/orders/renewals.service.server";
import { isOrderId, OrderError } from "~/server/orders/order-error.server";
import type { Route } from "./+types/order-cancel";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "orderErrors", "orders"] };

/**
 * /order/{orderId}/cancel: "Cancel renewal" asks first (decision 016): every item the
 * one subscription covers, until when they stay active, what is still charged, and that it
 * can be undone until then. Confirming posts here (no JavaScript needed) and goes back to
 * the dashboard, which confirms it (POST-redirect-GET).
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "billing.cancel"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  // Cancelled or ended already: the page says so itself, with the way back.
  try {
    const preview = await getCancelPreview(await getDeps(), { userId: user.ref, orderId: params.id });
    return data({ preview, formError: null as FormMessage | null });
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status, message } = httpErrorOf(orderErrors, err);
    if (err.code === "notFound") throw data(message, { status });
    // Already cancelled or ended: say so, with the way back.
    return data({ preview: null, formError: message }, { status });
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  // Every refusal (an order not found included) is said on the page, beside the way back.
  return formAction(
    request,
    { errors: orderErrors, errorsOn: "form", values: () => ({}) },
    {
      schema: z.object({}),
      async handle() {
        if (!isOrderId(params.id)) throw new OrderError("notFound");
        await cancelRenewal(await getDeps(), { userId: user.ref, orderId: params.id });
        return redirect(`/dashboard?billing=cancelled&order=${params.id}`);
      },
    },
  );
}

export default function OrderCancel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const { preview } = loaderData;
  const formError = actionData?.formError ?? loaderData.formError;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="cancel-title">
      <h1 id="cancel-title">{t("billing.cancel.title")}</h1>
      <FormAlert message={formError} />
      {preview ? (
        <>
          <p className="lead">{t("billing.cancel.intro")}</p>
          <p>{t("billing.cancel.covers", { count: preview.items.length })}</p>
          <ul className="text-break cancel-items">
            {preview.items.map((i) => (
              <li key={i.id}>{i.name}</li>
            ))}
          </ul>
          <p className="fw-semibold">{t("billing.cancel.until", { date: formatDate(preview.endsAt, lang) })}</p>
          <p>
            {preview.atPeriodEnd
              ? t("billing.cancel.nothingMore")
              : t("billing.cancel.minimumTerm", { date: formatDate(preview.endsAt, lang) })}
          </p>
          <p>{t("billing.cancel.undo")}</p>
          <Form method="post" className="d-flex flex-wrap gap-2">
            <button type="submit" className="btn btn-danger" disabled={navigation.state === "submitting"}>
              {t("billing.cancel.confirm")}
            </button>
            <Link to="/dashboard" className="btn btn-outline-secondary">
              {t("billing.cancel.back")}
            </Link>
          </Form>
        </>
      ) : (
        <Link to="/dashboard" className="btn btn-outline-secondary">
          {t("billing.cancel.back")}
        </Link>
      )}
    </section>
  );
}
