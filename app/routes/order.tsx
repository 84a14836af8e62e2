import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { OrderAmounts } from "~/components/OrderSummary";
import { formatDate } from "~/lib/dates";
import { formatFee } from "~/lib/fee";
import { pageMeta } from "~/lib/meta";
import { addressLines, parseOrderForm, type OrderFormError, type OrderFormValues } from "~/lib/order-form";
import { DEFAULT_PERIOD, formatPrice, orderTotals, type Period } from "~/lib/pricing";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { logger } from "~/server/logger.server";
import { createOrder, getOrderPage, OrderError, setCheckoutId } from "~/server/orders/orders.service.server";
import { getPaymentProvider } from "~/server/orders/payments.server";
import { readForm } from "~/server/http/form.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/order";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "orders");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // Spec: users without a name go to /login.
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const { database, config } = await getRuntime();
  const page = await getOrderPage(database.db, user.ref);
  return data(
    {
      lang,
      origin: config.baseUrl.origin,
      items: page.items,
      preselected: page.preselected,
      address: page.address ? addressLines(page.address) : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const noSubscription = () => () => {};

type ActionResult = { values: OrderFormValues; error: OrderFormError | null };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const parsed = parseOrderForm(await readForm(request));
  if (!parsed.ok) return data<ActionResult>({ values: parsed.values, error: parsed.error }, { status: 400 });
  // No JavaScript: the summary is recomputed here and the page rendered again.
  if (parsed.intent === "recalc") return data<ActionResult>({ values: parsed.data, error: null });
  const { database, config } = await getRuntime();
  let order;
  try {
    order = await createOrder(database.db, {
      userId: user.ref,
      productIds: parsed.data.items,
      period: parsed.data.payment,
      lang,
      provider: config.payments,
    });
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    if (err.code === "orders.errors.noAddress") throw redirect("/user/register-adress");
    return data<ActionResult>({ values: parsed.data, error: err.code }, { status: err.status });
  }
  const provider = getPaymentProvider(config);
  let url: string;
  try {
    const email = JSON.parse(order.adress).email || user.email;
    const start = await provider.startCheckout({ order, email, lang });
    if (start.checkoutId) await setCheckoutId(database.db, order.id, start.checkoutId);
    url = start.url;
  } catch (err) {
    logger.error({ err, order: order.id }, "starting the checkout failed");
    return data<ActionResult>({ values: parsed.data, error: "orders.errors.checkoutFailed" }, { status: 502 });
  }
  throw redirect(url);
}

export default function Order({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { items, origin, lang, address } = loaderData;
  const payable = new Set(items.filter((i) => !i.paid).map((i) => i.id));
  const initial = actionData?.values;
  const [selected, setSelected] = useState<string[]>(() =>
    (initial ? initial.items : loaderData.preselected).filter((id) => payable.has(id)),
  );
  const [period, setPeriod] = useState<Period>(initial?.payment ?? DEFAULT_PERIOD);
  // Without JavaScript the summary cannot follow the checkboxes: offer a recompute button.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  const count = selected.filter((id) => payable.has(id)).length;
  const totals = orderTotals({ lang, period, count });
  const error = actionData?.error;

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));

  return (
    <section className="py-4" aria-labelledby="order-title">
      <h1 id="order-title">{t("orders.title")}</h1>
      <p>{t("orders.intro")}</p>
      {error ? (
        <div className="alert alert-danger" role="alert" id="order-error">
          {t(error)}
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="lead">
          {t("orders.empty")} <Link to="/product/register">{t("orders.emptyLink")}</Link>
        </p>
      ) : (
        <Form method="post" noValidate aria-describedby={error ? "order-error" : undefined}>
          <ul className="list-unstyled order-items">
            {items.map((item) => {
              const url = `${origin}/${item.id}`;
              return (
                <li key={item.id} className="card mb-2 order-item" data-item={item.id}>
                  <div className="card-body d-flex flex-wrap align-items-center gap-3">
                    <div className="form-check m-0">
                      {item.paid ? (
                        <span className="badge text-bg-success">
                          {item.paidUntil
                            ? t("orders.itemActiveUntil", { date: formatDate(item.paidUntil, lang) })
                            : t("orders.itemActive")}
                        </span>
                      ) : (
                        <input
                          id={`order-item-${item.id}`}
                          type="checkbox"
                          className="form-check-input order-check"
                          name="items"
                          value={item.id}
                          checked={selected.includes(item.id)}
                          onChange={(e) => toggle(item.id, e.currentTarget.checked)}
                          aria-label={t("orders.select", { name: item.name })}
                        />
                      )}
                    </div>
                    <img
                      src={`/product/${item.id}/qr.svg?short`}
                      width={128}
                      height={128}
                      loading="lazy"
                      decoding="async"
                      alt={t("orders.qrLabel", { url })}
                      className="item-qr flex-shrink-0"
                      data-url={url}
                    />
                    <div className="min-w-0 flex-grow-1">
                      <h2 className="h5 text-break mb-1">{item.name}</h2>
                      <p className="mb-1">
                        {t("orders.type")}: {t(`items.types.${item.prodType}`, { defaultValue: item.prodType })}
                        {" · "}
                        {t("orders.fee")}: {formatFee(item.findFee, item.currency)}
                      </p>
                      <div className="d-flex gap-2">
                        <a
                          href={`/product/${item.id}`}
                          target="_blank"
                          rel="noopener"
                          className="btn btn-sm btn-outline-primary"
                          aria-label={t("orders.viewLabel", { name: item.name })}
                        >
                          {t("orders.view")}
                        </a>
                        <Link
                          to={`/product/edit/${item.id}`}
                          className="btn btn-sm btn-outline-secondary"
                          aria-label={t("orders.editLabel", { name: item.name })}
                        >
                          {t("orders.edit")}
                        </Link>
                      </div>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>

          <fieldset className="mb-3">
            <legend className="h5">{t("orders.payment")}</legend>
            {(["month", "year"] as const).map((p) => (
              <div key={p} className="form-check">
                <input
                  id={`order-payment-${p}`}
                  type="radio"
                  className="form-check-input"
                  name="payment"
                  value={p}
                  checked={period === p}
                  onChange={() => setPeriod(p)}
                />
                <label htmlFor={`order-payment-${p}`} className="form-check-label">
                  {t(`orders.${p}`)} (
                  {t(p === "month" ? "orders.perMonth" : "orders.perYear", {
                    price: formatPrice(orderTotals({ lang, period: p, count: 1 }).total, lang),
                  })}
                  )
                </label>
              </div>
            ))}
          </fieldset>

          <section className="card mb-3 order-summary" aria-labelledby="order-summary-title">
            <div className="card-body">
              <h2 id="order-summary-title" className="h5">
                {t("orders.summary.title")}
              </h2>
              <OrderAmounts
                live
                period={period}
                count={count}
                unitPrice={totals.unitPrice}
                packagePrice={totals.packagePrice}
                discount={totals.discount}
                total={totals.total}
                lang={lang}
              />
            </div>
          </section>

          {address ? (
            <div className="mb-3">
              <h2 className="h6 mb-1">{t("orders.address.title")}</h2>
              <address className="mb-1 order-address">
                {address.map((line, i) => (
                  <span key={i} className="d-block">
                    {line}
                  </span>
                ))}
              </address>
              <Link to="/user/register-adress">{t("orders.address.change")}</Link>
            </div>
          ) : (
            <div className="alert alert-warning" role="status">
              {t("orders.address.missing")}{" "}
              <Link to="/user/register-adress" className="alert-link">
                {t("orders.address.missingLink")}
              </Link>
            </div>
          )}

          <p className="small text-body-secondary">{t("orders.footnote")}</p>
          <div className="d-flex flex-wrap gap-2">
            {hydrated ? null : (
              <button type="submit" name="intent" value="recalc" className="btn btn-outline-secondary">
                {t("orders.recalc")}
              </button>
            )}
            <button
              type="submit"
              name="intent"
              value="pay"
              className="btn btn-primary"
              disabled={navigation.state === "submitting"}
            >
              {t("orders.submit")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
