import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { pageMeta } from "~/lib/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { completeTestPayment, getOrderView, OrderError } from "~/server/orders/orders.service.server";
import { getRuntime } from "~/server/runtime.server";
import { OrderSummary } from "~/components/OrderSummary";
import type { Route } from "./+types/order-checkout";

/**
 * /order/checkout/{orderId}: the test provider's checkout (PAYMENTS=test only). Clearly
 * a test: no card, no money; completing it runs the same code as Stripe's webhook.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "orders.checkout"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { database, config } = await getRuntime();
  if (config.payments !== "test") throw data(null, { status: 404 });
  const order = await getOrderView(database.db, user.ref, params.id);
  if (!order || order.provider !== "test") throw data(null, { status: 404 });
  if (order.paid) throw redirect(`/order/complete/${order.id}`);
  return data({ order }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const { database, config } = await getRuntime();
  try {
    await completeTestPayment(database.db, config, { userId: user.ref, orderId: params.id });
  } catch (err) {
    if (err instanceof OrderError) throw data(null, { status: err.status });
    throw err;
  }
  throw redirect(`/order/complete/${params.id}`);
}

export default function OrderCheckout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { order } = loaderData;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="checkout-title">
      <p>
        <span className="badge text-bg-warning fs-6">{t("orders.checkout.badge")}</span>
      </p>
      <h1 id="checkout-title">{t("orders.checkout.title")}</h1>
      <p className="alert alert-warning" role="note">
        {t("orders.checkout.intro")}
      </p>
      <OrderSummary order={order} />
      <Form method="post" className="d-flex flex-wrap gap-2 mt-3">
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
          {t("orders.checkout.pay")}
        </button>
        <Link to="/order" className="btn btn-outline-secondary">
          {t("orders.checkout.cancel")}
        </Link>
      </Form>
    </section>
  );
}
