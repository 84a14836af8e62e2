import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { Link, useRevalidator } from "react-router";
import { OneTimeFailure, oneTimeFailed, PaidOnceNote } from "~/components/OneTimeOutcome";
import { OrderSummary } from "~/components/OrderSummary";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { addressLines } from "~/lib/forms/order-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { getOrderView } from "~/server/orders/order-page.service.server";
import type { Route } from "./+types/order-complete";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "orderErrors", "orders", "swish"] };

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
  const { address, ...rest } = await orErrorPage(orderErrors, getOrderView(await getDeps(), user.ref, params.id));
  return {
    order: rest,
    address: address ? addressLines(address, { lang: context.get(requestContext).lang }) : [],
    // Stripe's cancel_url of a year paid at once (decision 056): the payer left the checkout.
    left: new URL(request.url).searchParams.get("left") === "1",
  };
}

/** Checks every 3 s for a minute, then every 10 s up to ten minutes. */
const POLL_FAST_MS = 3_000;
const POLL_SLOW_MS = 10_000;
const FAST_CHECKS = 20;
const MAX_CHECKS = 74;

/**
 * While the payment is unconfirmed (Stripe's webhook on its way), the page asks the server
 * again by itself (decision 016) and says it is still waiting; without JavaScript the
 * "Check again" link does the same.
 */
function useWaitForPayment(waiting: boolean): number {
  const revalidator = useRevalidator();
  const [checks, setChecks] = useState(0);
  useEffect(() => {
    if (!waiting || checks >= MAX_CHECKS || revalidator.state !== "idle") return;
    const timer = setTimeout(
      () => {
        setChecks((n) => n + 1);
        void revalidator.revalidate();
      },
      checks < FAST_CHECKS ? POLL_FAST_MS : POLL_SLOW_MS,
    );
    return () => clearTimeout(timer);
  }, [waiting, checks, revalidator]);
  return checks;
}

export default function OrderComplete({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { order, address } = loaderData;
  const failed = oneTimeFailed(order, loaderData.left);
  const checks = useWaitForPayment(!order.paid && order.status === "pending" && !failed);
  if (failed) return <OneTimeFailure order={order} left={loaderData.left} />;
  if (order.status === "duplicate") {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="complete-title">
        <h1 id="complete-title">{t("orders.complete.titleDuplicate")}</h1>
        <p role="status">{t("orders.complete.duplicate")}</p>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/contact" className="btn btn-primary">
            {t("orders.complete.contact")}
          </Link>
          <Link to="/dashboard" className="btn btn-outline-secondary">
            {t("orders.complete.dashboard")}
          </Link>
        </div>
      </section>
    );
  }
  if (order.status === "cancelled") {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="complete-title">
        <h1 id="complete-title">{t("billing.complete.titleCancelled")}</h1>
        <p role="status">{t("billing.complete.cancelled")}</p>
        <Link to="/order" className="btn btn-primary">
          {t("billing.complete.orderAgain")}
        </Link>
      </section>
    );
  }
  if (!order.paid) {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="complete-title">
        <h1 id="complete-title">{t("orders.complete.titlePending")}</h1>
        <p>{t("orders.complete.pending")}</p>
        <p role="status" aria-live="polite" className="order-waiting">
          {checks === 0
            ? null
            : checks < FAST_CHECKS
              ? t("billing.complete.waiting", { count: checks })
              : t("billing.complete.slow")}
        </p>
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
      <PaidOnceNote order={order} lang={lang} />
      {order.receiptTo ? <p>{t("orders.complete.receipt", { email: order.receiptTo })}</p> : null}
      {order.receiptWaitsFor ? (
        <div className="alert alert-warning order-receipt-waits" role="note">
          <p className="mb-2">{t("orders.complete.receiptWaits", { email: order.receiptWaitsFor })}</p>
          <Link to="/user/verify-email" className="alert-link">
            {t("orders.complete.verify")}
          </Link>
        </div>
      ) : null}
      {order.receiptNumber != null ? (
        <p>
          <a href={`/order/${order.id}/receipt.pdf?number=${order.receiptNumber}`} download>
            {t("orders.complete.receiptPdf", { number: order.receiptNumber })}
          </a>
        </p>
      ) : null}
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
