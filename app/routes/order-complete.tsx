import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { OrderSummary } from "~/components/OrderSummary";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { addressLines } from "~/lib/order-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getOrderView } from "~/server/orders/orders.service.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/order-complete";

/**
 * /order/complete/{orderId}: the confirmation after checkout (Stripe's success_url and
 * the test checkout's redirect). Owner only. With Stripe the webhook may still be on its
 * way: the page then says the payment is being confirmed.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "orders.complete"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const { database } = await getRuntime();
  const order = await getOrderView(database.db, user.ref, params.id);
  if (!order) throw data(null, { status: 404 });
  const { address, ...rest } = order;
  return data(
    { lang, order: rest, address: address ? addressLines(address) : [] },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function OrderComplete({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order, address, lang } = loaderData;
  if (!order.paid) {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="complete-title">
        <h1 id="complete-title">{t("orders.complete.titlePending")}</h1>
        <p role="status">{t("orders.complete.pending")}</p>
        <Link to={`/order/complete/${order.id}`} className="btn btn-outline-primary">
          {t("orders.complete.refresh")}
        </Link>
      </section>
    );
  }
  return (
    <section className="py-4 col-lg-8" aria-labelledby="complete-title">
      <h1 id="complete-title">{t("orders.complete.title")}</h1>
      <p className="lead" role="status">
        {t("orders.complete.paid")}
        {order.paidUntil ? ` ${t("orders.complete.paidUntil", { date: formatDate(order.paidUntil, lang) })}` : ""}
      </p>
      {order.email ? <p>{t("orders.complete.receipt", { email: order.email })}</p> : null}
      <OrderSummary order={order} />
      {address.length > 0 ? (
        <div className="mt-3">
          <h2 className="h6">{t("orders.complete.shipping")}</h2>
          <address className="order-address">
            {address.map((line, i) => (
              <span key={i} className="d-block">
                {line}
              </span>
            ))}
          </address>
        </div>
      ) : null}
      <Link to="/dashboard" className="btn btn-primary mt-2">
        {t("orders.complete.dashboard")}
      </Link>
    </section>
  );
}
