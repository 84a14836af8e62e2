import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { CheckoutTerms } from "~/components/CheckoutTerms";
import { PayWithChoice } from "~/components/PayWithChoice";
import { WithdrawalConsent } from "~/components/WithdrawalConsent";
import { FormAlert } from "~/components/form/FormAlert";
import { OrderAmounts } from "~/components/OrderSummary";
import { formatDate } from "~/lib/domain/dates";
import { formatFee } from "~/lib/domain/fee";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { checkRadio, useCheckedList, useCheckedValue } from "~/lib/hooks/use-field-value";
import { ItemFilterForm } from "~/components/ItemFilterForm";
import { Pager } from "~/components/Pager";
import { filterQuery, isFiltered, ORDER_PAGE_SIZE } from "~/lib/domain/item-filter";
import { parseItemQuery } from "~/lib/domain/item-query";
import { parseOrderForm, type OrderFormValues, type OrderScope } from "~/lib/forms/order-form";
import {
  DEFAULT_PERIOD,
  formatPrice,
  nextItemIsFree,
  orderTotals,
  PACKAGE_CODES,
  type Period,
} from "~/lib/domain/pricing";
// Not ~/lib/domain/eu-vat: its country and VAT tables need not reach the order page's bundle.
import { vatOfGross } from "~/lib/domain/vat";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { activeScopeOf, organisationIdOf } from "~/server/organisations/scope.http.server";
import { invalidForm, serviceErrorResponse } from "~/server/http/errors.server";
import { readForm } from "~/server/http/form.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { startInvoice } from "~/server/orders/invoice.service.server";
import { loadOrderPage } from "~/server/orders/order-page.http.server";
import { startCheckout } from "~/server/orders/checkout.service.server";
import { chosenPackage, forgetPackage } from "~/server/order-draft/package-choice.server";
import type { Route } from "./+types/order";
import { Hydrated } from "~/components/Hydrated";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = {
  i18n: [
    "address",
    "billing",
    "common",
    "dashboard",
    "flash",
    "invoices",
    "itemTypes",
    "items",
    "orderErrors",
    "orders",
    "seller",
    "swish",
  ],
};

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "orders");
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  // The action's headers (Retry-After on a 429) join the page's.
  const out = new Headers(loaderHeaders);
  actionHeaders.forEach((value, key) => out.set(key, value));
  return out;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // Spec: users without a name go to /login.
  const user = await requireNamedUser(request, "/login");
  return loadOrderPage(await getDeps(), request, user.ref, context.get(requestContext).lang);
}

/** The page again with what was posted, its summary recomputed (the form without JavaScript). */
const recalculated = (values: OrderFormValues) =>
  data<ActionResult<OrderFormValues>>({ values, fieldErrors: {}, formError: null });

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const parsed = parseOrderForm(await readForm(request));
  if (!parsed.ok) return invalidForm(parsed.values, {}, { key: parsed.error });
  // No JavaScript: the summary is recomputed here and the page rendered again.
  if (parsed.intent === "recalc") return recalculated(parsed.data);
  let url: string;
  const deps = await getDeps();
  try {
    const input = {
      userId: user.ref,
      itemIds: parsed.data.items,
      // The form posts to /order?{filter}: "all unpaid" means those the page's filter
      // matches, in the active scope (decision 022).
      allUnpaid: parsed.data.scope === "allUnpaid" ? parseItemQuery(new URL(request.url).searchParams) : undefined,
      organisationId: organisationIdOf(await activeScopeOf(deps, request, user.ref)),
      period: parsed.data.payment,
      lang,
      immediateStart: parsed.data.immediateStart,
      payWith: parsed.data.payWith,
    };
    // Decision 027: the service checks that the user is an admin of the active organisation.
    ({ url } = parsed.intent === "invoice" ? await startInvoice(deps, input) : await startCheckout(deps, input));
  } catch (err) {
    return serviceErrorResponse(orderErrors, err, parsed.data);
  }
  // The home page's package choice has served its purpose once a checkout starts.
  throw redirect(url, { headers: chosenPackage(request) ? { "Set-Cookie": forgetPackage() } : undefined });
}

/** A new page or filter is a new form: its preselection and scope start afresh. */
export default function Order(props: Route.ComponentProps) {
  const { filter, pageInfo } = props.loaderData;
  return <OrderForm key={filterQuery(filter, pageInfo.page)} {...props} />;
}

function OrderForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const lang = useLang();
  const { items, origin, address, missing, pageInfo, total, unpaidMatching, filter, invoice, seller, consumer } =
    loaderData;
  // More items than one page: a filter, page links and "all unpaid" (decision 021).
  const large = total > ORDER_PAGE_SIZE || isFiltered(filter);
  const payable = new Set(items.filter((i) => !i.paid || i.ahead).map((i) => i.id));
  const initial = actionData?.values;
  // Uncontrolled ticks and radios: what is chosen before the page's script runs stays
  // (decision 032); the summary reads them from the DOM.
  const initialSelected = (initial ? initial.items : loaderData.preselected).filter((id) => payable.has(id));
  const selected = useCheckedList("items", initialSelected);
  const initialPeriod: Period = initial?.payment ?? loaderData.focus?.period ?? DEFAULT_PERIOD;
  const period = useCheckedValue("payment", initialPeriod) as Period;
  // A package chosen on the home page means "these few items", not "all unpaid".
  // So does the item "Save and pay now" came from.
  const initialScope: OrderScope =
    initial?.scope ?? (large && !loaderData.chosenPackage && !loaderData.focus ? "allUnpaid" : "selected");
  // Without the scope radios (one page of items) this stays the initial scope.
  const scope = useCheckedValue("scope", initialScope) as OrderScope;

  // "All unpaid": the server's count of them (the action counts again when the order is made).
  const count = scope === "allUnpaid" ? unpaidMatching : selected.filter((id) => payable.has(id)).length;
  const totals = orderTotals({ lang, period, count });
  const error = actionData?.formError;

  // An organisation's admin pays by card or by invoice (decision 038): each way shows
  // its own terms only, the card's renewal and minimum term never above an invoice. Without
  // JavaScript both are shown, each under its own heading, with its own button.
  const initialMethod = invoice && !invoice.blocker ? "invoice" : "card";
  const method = useCheckedValue("method", initialMethod);
  // Card or one year at once (decision 056): the terms follow the choice.
  const payWith = useCheckedValue("payWith", initial?.payWith ?? "card");
  const once = period === "year" && (loaderData.oneTimeMethods as readonly string[]).includes(payWith);

  // Ticking an item means "the items I tick", so the scope follows.
  const toggle = () => checkRadio("order-scope-selected");
  // The package hint counts all unpaid items (the server's count), not this page's.
  const unpaidAll = isFiltered(filter) ? null : unpaidMatching;

  // Built here, outside <Hydrated>: the render right after hydration skips them.
  const cardBody = (
    <>
      <PayWithChoice methods={loaderData.oneTimeMethods} period={period} initial={initial?.payWith ?? "card"} />
      <CheckoutTerms period={period} total={totals.total} lang={lang} seller={seller} once={once} />
      <WithdrawalConsent
        consumer={consumer}
        checked={initial?.immediateStart ?? false}
        error={actionData?.fieldErrors.immediateStart}
      />
      <button
        type="submit"
        name="intent"
        value="pay"
        className="btn btn-primary"
        disabled={navigation.state === "submitting"}
      >
        {t("orders.submit")}
      </button>
    </>
  );
  const invoiceSection = invoice ? (
    <section className="card mt-3 order-invoice" aria-labelledby="order-invoice-title">
      <div className="card-body">
        <h2 id="order-invoice-title" className="h6">
          {t("invoices.order.title")}
        </h2>
        <p id="order-invoice-terms" className="mb-1 text-break">
          {t("invoices.order.terms", { organisation: invoice.organisation, email: invoice.email })}{" "}
          {t("invoices.order.credit", { count: invoice.creditItems })}
        </p>
        {invoice.blocker === "verifyEmail" ? (
          <p className="alert alert-warning mb-2 order-invoice-blocked">{t("invoices.order.blocked.verifyEmail")}</p>
        ) : invoice.blocker === "billingEmail" ? (
          <p className="alert alert-warning mb-2 order-invoice-blocked">
            {t("invoices.order.blocked.billingEmail")}{" "}
            <Link to={`/organisations/${invoice.organisationId}#org-billing-email`}>
              {t("invoices.order.blocked.billingEmailLink")}
            </Link>
          </p>
        ) : null}
        <p className="small">
          {invoice.treatment === "reverseCharge"
            ? t("invoices.order.reverseCharge", {
                amount: formatPrice(
                  vatOfGross(orderTotals({ lang, period: "year", count }).minor.total).net / 100,
                  lang,
                ),
              })
            : t("invoices.order.vatIncluded")}{" "}
          {period === "year" ? null : t("invoices.order.yearlyOnly")}
        </p>
        {invoice.blocker ? null : (
          <button
            type="submit"
            name="intent"
            value="invoice"
            className="btn btn-primary order-invoice-submit"
            aria-describedby="order-invoice-terms"
            disabled={navigation.state === "submitting"}
          >
            {t("invoices.order.submit")}
          </button>
        )}
      </div>
    </section>
  ) : null;

  return (
    <section className="py-4" aria-labelledby="order-title">
      <h1 id="order-title">{t("orders.title")}</h1>
      <p>{t("orders.intro")}</p>
      {loaderData.saved ? (
        <div className="alert alert-success" role="status">
          {t("common.saved")}
        </div>
      ) : null}
      <FormAlert message={error} />
      {loaderData.chosenPackage ? (
        <div className="alert alert-info order-package" role="note">
          <p className="mb-0">{t(`orders.package.${loaderData.chosenPackage}`)}</p>
          {unpaidAll !== null && unpaidAll < PACKAGE_CODES[loaderData.chosenPackage] ? (
            <p className="mb-0 mt-1">
              {t("orders.package.more", { count: PACKAGE_CODES[loaderData.chosenPackage] - unpaidAll })}{" "}
              <Link to="/product/register">{t("orders.package.register")}</Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {large ? (
        <ItemFilterForm key={filterQuery(filter, 1)} filter={filter} action="/order" idPrefix="order-filter" />
      ) : null}
      {total === 0 ? (
        <p className="lead">
          {t("orders.empty")} <Link to="/product/register">{t("orders.emptyLink")}</Link>
        </p>
      ) : (
        <Form method="post" action={`/order${filterQuery(filter, pageInfo.page)}`} noValidate>
          {large ? (
            <fieldset className="mb-3 order-scope">
              <legend className="h5">{t("orders.scope.legend")}</legend>
              <div className="form-check">
                <input
                  id="order-scope-all"
                  type="radio"
                  className="form-check-input"
                  name="scope"
                  value="allUnpaid"
                  defaultChecked={initialScope === "allUnpaid"}
                />
                <label htmlFor="order-scope-all" className="form-check-label">
                  {t(isFiltered(filter) ? "orders.scope.allMatching" : "orders.scope.all", { count: unpaidMatching })}
                </label>
              </div>
              <div className="form-check">
                <input
                  id="order-scope-selected"
                  type="radio"
                  className="form-check-input"
                  name="scope"
                  value="selected"
                  defaultChecked={initialScope === "selected"}
                />
                <label htmlFor="order-scope-selected" className="form-check-label">
                  {t("orders.scope.selected")}
                </label>
              </div>
            </fieldset>
          ) : null}
          {items.length === 0 ? <p className="order-none">{t("dashboard.filter.none")}</p> : null}
          <ul className="list-unstyled order-items">
            {items.map((item) => {
              const url = `${origin}/${item.id}`;
              return (
                <li key={item.id} className="card mb-2 order-item" data-item={item.id}>
                  <div className="card-body d-flex flex-wrap align-items-center gap-3">
                    {/* The tick's column has one width on every row, so the QR codes line up
                        whether a row has a tick or is paid already (its badge goes with the
                        name, decision 057). */}
                    <div className="form-check m-0 order-pick">
                      {item.paid && !item.ahead ? null : (
                        <input
                          id={`order-item-${item.id}`}
                          type="checkbox"
                          className="form-check-input order-check"
                          name="items"
                          value={item.id}
                          defaultChecked={initialSelected.includes(item.id)}
                          onChange={toggle}
                          aria-label={t("orders.select", { name: item.name })}
                        />
                      )}
                    </div>
                    <img
                      src={`/product/${item.id}/qr.png?screen`}
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
                      {item.paid && !item.ahead ? (
                        <p className="mb-1">
                          <span className="badge text-bg-success text-wrap">
                            {item.paidUntil
                              ? t("orders.itemActiveUntil", { date: formatDate(item.paidUntil, lang) })
                              : t("orders.itemActive")}
                          </span>
                        </p>
                      ) : null}
                      {item.ahead && item.paidUntil ? (
                        <p className="mb-1 small order-ahead">
                          {t("orders.prepaidAhead", { date: formatDate(item.paidUntil, lang) })}
                        </p>
                      ) : null}
                      <p className="mb-1">
                        {t("orders.type")}: {t(`itemTypes.${item.prodType}`, { defaultValue: item.prodType })}
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
          <Pager info={pageInfo} hrefFor={(p) => `/order${filterQuery(filter, p)}`} label={t("common.pager.label")} />

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
                  defaultChecked={initialPeriod === p}
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
              {nextItemIsFree({ lang, period, count }) ? (
                // Two items cost the Triple price: say a third is free.
                <p className="mb-0 mt-2 order-free-next">
                  {t("orders.freeNext", { count: count + 1, less: count })}{" "}
                  <Link to="/product/register">{t("orders.freeNextLink")}</Link>
                </p>
              ) : null}
            </div>
          </section>

          {address && missing?.length ? (
            <div className="alert alert-warning" role="status" id="order-address-incomplete">
              {t("address.incomplete", {
                fields: missing.map((f) => t(`address.fields.${f}`)).join(", "),
              })}{" "}
              <Link to="/user/register-adress?missing=1" className="alert-link">
                {t("orders.address.missingLink")}
              </Link>
            </div>
          ) : null}
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
          {/* Without JavaScript the summary cannot follow the checkboxes (a recompute button), and
              an organisation's admin sees both ways to pay, each under its own heading. */}
          <Hydrated>
            {(hydrated) => (
              <>
                {invoice && hydrated ? (
                  <fieldset className="mb-3 order-method">
                    <legend className="h5">{t("invoices.order.method.legend")}</legend>
                    {(["invoice", "card"] as const).map((m) => (
                      <div key={m} className="form-check">
                        <input
                          id={`order-method-${m}`}
                          type="radio"
                          className="form-check-input"
                          name="method"
                          value={m}
                          defaultChecked={initialMethod === m}
                        />
                        <label htmlFor={`order-method-${m}`} className="form-check-label">
                          {t(`invoices.order.method.${m}`)}
                        </label>
                      </div>
                    ))}
                  </fieldset>
                ) : null}
                {hydrated ? null : (
                  <div className="mb-3">
                    <button type="submit" name="intent" value="recalc" className="btn btn-outline-secondary">
                      {t("orders.recalc")}
                    </button>
                  </div>
                )}
                {!invoice || !hydrated || method === "card" ? (
                  <div className="order-by-card">
                    {invoice && !hydrated ? <h2 className="h6">{t("invoices.order.method.card")}</h2> : null}
                    {cardBody}
                  </div>
                ) : null}
                {invoice && (!hydrated || method === "invoice") ? invoiceSection : null}
              </>
            )}
          </Hydrated>
        </Form>
      )}
    </section>
  );
}
