import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import type { FormMessage } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import { getWithdrawalPage, withdrawOrder } from "~/server/orders/withdrawal.service.server";
import { WithdrawnOrder } from "~/components/WithdrawnOrder";
import type { Route } from "./+types/order-withdraw";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "orderErrors", "orders"] };

/**
 * /order/{orderId}/withdraw: a consumer withdraws within 14 days (decision 041). The page
 * says what happens (the refund and how it is reckoned, the items that stop, the stickers
 * already posted) and confirms with a plain form (no JavaScript needed); done, the
 * dashboard confirms it (POST-redirect-GET). A business order, an order past its 14 days
 * or one already withdrawn answer with the reason (4xx); others' orders do not exist.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "orders.withdrawal.page"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/** notFound is the error page (as on every order route); the other refusals are said on this page. */
function refusal(err: unknown) {
  if (!(err instanceof OrderError)) throw err;
  const { status, message } = httpErrorOf(orderErrors, err);
  if (err.code === "notFound") throw data(message, { status });
  return { status, message };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  // An order that cannot be withdrawn is said on this page itself, with what happened.
  try {
    // Withdrawn already: what happened, without an error (decision 051).
    const page = await getWithdrawalPage(await getDeps(), { userId: user.ref, orderId: params.id });
    const preview = page.kind === "open" ? page.preview : null;
    const withdrawn = page.kind === "withdrawn" ? page.withdrawn : null;
    return data({ preview, withdrawn, formError: null as FormMessage | null });
  } catch (err) {
    const { status, message } = refusal(err);
    return data({ preview: null, withdrawn: null, formError: message }, { status });
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  return formAction(
    request,
    { errors: orderErrors, values: () => ({}) },
    {
      schema: z.object({}),
      async handle() {
        await withdrawOrder(await getDeps(), { userId: user.ref, orderId: params.id });
        return redirect(`/dashboard?billing=withdrawn&order=${params.id}`);
      },
    },
  );
}

export default function OrderWithdraw({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const { preview, withdrawn } = loaderData;
  // A second confirmation (another tab) finds it withdrawn: the page says what happened.
  if (withdrawn) return <WithdrawnOrder withdrawn={withdrawn} />;
  const formError = actionData?.formError ?? loaderData.formError;
  const back = (
    <Link to="/dashboard" className="btn btn-outline-secondary">
      {t("billing.cancel.back")}
    </Link>
  );
  if (!preview) {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="withdraw-title">
        <h1 id="withdraw-title">{t("orders.withdrawal.page.title")}</h1>
        <FormAlert message={formError} />
        {back}
      </section>
    );
  }
  const money = (minor: number) => formatPrice(minor / 100, preview.currency === "SEK" ? "sv" : "en");
  return (
    <section className="py-4 col-lg-8" aria-labelledby="withdraw-title">
      <h1 id="withdraw-title">{t("orders.withdrawal.page.title")}</h1>
      <FormAlert message={formError} />
      <p className="lead">
        {t(preview.paid === 0 ? "orders.withdrawal.page.introAhead" : "orders.withdrawal.page.intro", {
          date: formatDate(preview.paidAt, lang),
          deadline: formatDate(preview.deadline, lang),
        })}
      </p>
      <h2 className="h5">{t("orders.withdrawal.page.happens")}</h2>
      <p>
        {preview.startsAt == null
          ? t("orders.withdrawal.page.ends", { count: preview.items.length })
          : t("orders.withdrawal.page.endsAhead", { date: formatDate(preview.startsAt, lang) })}
      </p>
      <ul className="text-break withdraw-items">
        {preview.items.map((i) => (
          <li key={i.id}>{i.name}</li>
        ))}
      </ul>
      <p className="fw-semibold withdraw-refund" data-refund={preview.refund}>
        {preview.paid === 0
          ? t("orders.withdrawal.page.nothingPaid")
          : preview.refund === preview.paid
            ? t("orders.withdrawal.page.refundAll", { refund: money(preview.refund) })
            : t("orders.withdrawal.page.refund", { refund: money(preview.refund), total: money(preview.paid) })}
      </p>
      <p hidden={preview.paid === 0}>
        {preview.kept > 0
          ? t("orders.withdrawal.proRata", {
              count: preview.daysUsed,
              periodDays: preview.periodDays,
              kept: money(preview.kept),
            })
          : t(
              preview.startsAt != null
                ? "orders.withdrawal.fullNotStarted"
                : preview.immediateStartAt == null
                  ? "orders.withdrawal.fullNoRequest"
                  : "orders.withdrawal.fullNoDays",
            )}
      </p>
      <p className="withdraw-shipment">
        {preview.shipment?.status === "shipped"
          ? t("orders.withdrawal.shipped", { date: formatDate(preview.shipment.shippedAt ?? preview.paidAt, lang) })
          : preview.shipment
            ? t("orders.withdrawal.notShipped")
            : null}
      </p>
      <Form method="post" className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-danger" disabled={navigation.state === "submitting"}>
          {preview.paid === 0
            ? t("orders.withdrawal.page.confirmNothing")
            : t("orders.withdrawal.page.confirm", { refund: money(preview.refund) })}
        </button>
        {back}
      </Form>
    </section>
  );
}
