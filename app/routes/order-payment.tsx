import { useTranslation } from "~/i18n/react";
import { data, Link, redirect } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import { paymentPortalUrl } from "~/server/orders/renewals.service.server";
import type { Route } from "./+types/order-payment";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "orderErrors", "orders"] };

/**
 * /order/{orderId}/payment: "Manage payment" (decision 016). With Stripe it opens a Customer
 * Portal session for the order's own customer (update the card, see invoices); the
 * failed-payment mail links here, so the owner signs in first. A GET: it changes nothing
 * here, and the portal session is the owner's own. With the test provider a page says
 * there is no card.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "billing.payment"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  // No portal for this order is the page's own message (200); any other refusal is the error page.
  try {
    const url = await paymentPortalUrl(await getDeps(), { userId: user.ref, orderId: params.id, lang });
    throw redirect(url);
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status, message } = httpErrorOf(orderErrors, err);
    if (err.code === "noPortal") {
      return data({ message }, { status: 200 });
    }
    throw data(message, { status });
  }
}

export default function OrderPayment({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { message } = loaderData;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="payment-title">
      <h1 id="payment-title">{t("billing.payment.title")}</h1>
      <p role="status">{t(message.key, message.params ?? {})}</p>
      <Link to="/dashboard" className="btn btn-outline-secondary">
        {t("billing.payment.back")}
      </Link>
    </section>
  );
}
