import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { CheckoutTerms } from "~/components/CheckoutTerms";
import { FormAlert } from "~/components/form/FormAlert";
import { OrderSummary } from "~/components/OrderSummary";
import { TestOneTimeStep } from "~/components/TestOneTimeStep";
import { pageMeta } from "~/lib/domain/meta";
import type { SellerView } from "~/lib/domain/seller";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { readForm } from "~/server/http/form.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { completeTestPayment, getTestCheckout } from "~/server/orders/checkout.service.server";
import { OrderError } from "~/server/orders/order-error.server";
import type { Route } from "./+types/order-checkout";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "common", "orderErrors", "orders", "seller", "swish"] };

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

/** An order whose items were paid meanwhile is answered with its message; others are not found. */
function refusal(err: unknown, seller: SellerView) {
  if (!(err instanceof OrderError)) throw err;
  const { status, message } = httpErrorOf(orderErrors, err);
  if (err.code !== "alreadyPaid") throw data(null, { status });
  return data({ order: null, formError: message, seller }, { status });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  let order;
  const deps = await getDeps();
  // The test checkout's own refusal: an order paid already is said on this page beside its
  // summary; any other is the bare error page (decision 059's exception).
  try {
    order = await getTestCheckout(deps, { userId: user.ref, orderId: params.id });
  } catch (err) {
    return refusal(err, deps.site.seller);
  }
  if (order.paid) throw redirect(`/order/complete/${order.id}`);
  return data({ order, formError: null, seller: deps.site.seller });
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const deps = await getDeps();
  // The test checkout's own refusal: an order paid already is said on this page beside its
  // summary; any other is the bare error page (decision 059's exception).
  const form = await readForm(request);
  const phone = String(form.get("phone") ?? "").slice(0, 40);
  const input = { userId: user.ref, orderId: params.id, phone, decline: form.get("intent") === "decline" };
  try {
    await completeTestPayment(deps, input);
  } catch (err) {
    // The simulated Swish step's number (decision 056): said beside the field, what was typed kept.
    if (!(err instanceof OrderError) || err.code !== "swishNumberInvalid") return refusal(err, deps.site.seller);
    const { status, message } = httpErrorOf(orderErrors, err);
    return data({ phone, phoneError: message.key }, { status });
  }
  throw redirect(`/order/complete/${params.id}`);
}

export default function OrderCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { order } = loaderData;
  const refused = actionData && "formError" in actionData ? actionData : null;
  const typed = actionData && "phone" in actionData ? actionData : null;
  const formError = refused?.formError ?? loaderData.formError;
  if (!order || formError) {
    return (
      <section className="py-4 col-lg-8" aria-labelledby="checkout-title">
        <h1 id="checkout-title">{t("orders.checkout.title")}</h1>
        <FormAlert message={formError} />
        <Link to="/order" className="btn btn-primary">
          {t("orders.checkout.back")}
        </Link>
      </section>
    );
  }
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
      <div className="mt-3">
        <CheckoutTerms
          period={order.period}
          total={order.total}
          lang={order.currency === "SEK" ? "sv" : "en"}
          seller={loaderData.seller}
          once={order.paymentKind !== "subscription"}
        />
      </div>
      {order.paymentKind !== "subscription" ? (
        <TestOneTimeStep
          orderId={order.id}
          method={order.paymentKind}
          phone={typed?.phone ?? ""}
          phoneError={typed?.phoneError}
          busy={navigation.state === "submitting"}
        />
      ) : (
        <Form method="post" className="d-flex flex-wrap gap-2 mt-3">
          <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
            {t("orders.checkout.pay")}
          </button>
          <Link to="/order" className="btn btn-outline-secondary">
            {t("orders.checkout.cancel")}
          </Link>
        </Form>
      )}
    </section>
  );
}
