import { SellerDetails } from "~/components/SellerDetails";
import { useTranslation } from "~/i18n/react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { buttonAction } from "~/server/http/form-action.server";
import { getInvoiceView, markTestInvoicePaid } from "~/server/orders/invoice.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import type { Route } from "./+types/order-invoice";

/**
 * /order/{orderId}/invoice: an organisation's invoice (decision 027), its admins only
 * (members 403, everyone else 404). In test mode it is the simulated invoice, marked
 * "TEST — not a real invoice", with "Mark as paid"; with Stripe a summary and a link to
 * Stripe's hosted invoice (which the billing email also received).
 */

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "seller", "invoices", "orderErrors", "orders"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "invoices.invoice"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  return {
    invoice: await orErrorPage(
      orderErrors,
      getInvoiceView(await getDeps(), { userId: user.ref, orderId: params.id, lang }),
    ),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  // Every refusal of the test payment is the error page: the invoice has no form to show it on.
  return buttonAction({ errors: orderErrors, errorsOn: "page" }, async () => {
    await markTestInvoicePaid(await getDeps(), { userId: user.ref, orderId: params.id });
    return redirect(`/order/${params.id}/invoice`);
  });
}

export default function OrderInvoice({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const v = loaderData.invoice;
  // Amounts ("480 kr", "−€32") stay on one line in the narrow column of a phone: the cells
  // are text-nowrap, and the space before "kr" is a no-break space in copied text too.
  const money = (minor: number) =>
    formatPrice(minor / 100, v.currency === "SEK" ? "sv" : "en").replace(" kr", "\u00a0kr");
  return (
    <section className="py-4 col-lg-8" aria-labelledby="invoice-title">
      {v.simulated ? (
        <p className="alert alert-warning fw-bold invoice-test-banner" role="note">
          {t("invoices.invoice.testBanner")}
        </p>
      ) : null}
      <h1 id="invoice-title">{t("invoices.invoice.title", { number: v.number })}</h1>
      <p>
        <span className={`badge invoice-state invoice-state-${v.state} ${stateBadge[v.state]}`}>
          {t(`invoices.state.${v.state}`)}
        </span>
      </p>
      <div className="row g-3 mb-3">
        <div className="col-sm-6">
          <h2 className="h6">{t("billing.receipt.seller")}</h2>
          <SellerDetails seller={v.seller} />
        </div>
        <div className="col-sm-6">
          <h2 className="h6">{t("billing.receipt.buyer")}</h2>
          <address className="mb-0 text-break invoice-buyer">
            <span className="d-block">{v.buyer.name}</span>
            <span className="d-block">{`${t("billing.receipt.orgNr")} ${v.buyer.orgNumber}`}</span>
            <span className="d-block">{v.buyer.street}</span>
            <span className="d-block">{`${v.buyer.postcode} ${v.buyer.city}`}</span>
            <span className="d-block">{v.buyer.country}</span>
            {v.buyer.vatNumber ? (
              <span className="d-block">{`${t("billing.receipt.vatNr")} ${v.buyer.vatNumber}`}</span>
            ) : null}
          </address>
        </div>
      </div>
      <dl className="row mb-3">
        <dt className="col-6 col-sm-4">{t("invoices.invoice.number")}</dt>
        <dd className="col-6 col-sm-8">{v.number}</dd>
        <dt className="col-6 col-sm-4">{t("invoices.invoice.issued")}</dt>
        <dd className="col-6 col-sm-8">{formatDate(v.issuedAt, lang)}</dd>
        <dt className="col-6 col-sm-4">{t("invoices.invoice.due")}</dt>
        <dd className="col-6 col-sm-8 invoice-due">{formatDate(v.dueAt, lang)}</dd>
        <dt className="col-6 col-sm-4">{t("invoices.invoice.terms")}</dt>
        <dd className="col-6 col-sm-8">{t("invoices.invoice.termsValue")}</dd>
        {v.periodEnd ? (
          <>
            <dt className="col-6 col-sm-4">{t("billing.receipt.period")}</dt>
            <dd className="col-6 col-sm-8">
              {formatDate(v.issuedAt, lang)} – {formatDate(v.periodEnd, lang)}
            </dd>
          </>
        ) : null}
        {v.paidAt ? (
          <>
            <dt className="col-6 col-sm-4">{t("billing.receipt.paid")}</dt>
            <dd className="col-6 col-sm-8">{formatDate(v.paidAt, lang)}</dd>
          </>
        ) : null}
      </dl>
      <table className="table invoice-lines">
        <caption className="visually-hidden">{t("invoices.invoice.linesCaption")}</caption>
        <tbody>
          {v.lines.map((l, i) => (
            <tr key={i}>
              <th scope="row" className="fw-normal">
                {l.description}
              </th>
              <td className="text-end text-nowrap">{money(l.amount)}</td>
            </tr>
          ))}
          {/* VAT only from a seller with a VAT number, as on receipts (decision 057). */}
          {v.seller.vatOnReceipts ? (
            <>
              <tr>
                <th scope="row">{t("billing.receipt.net")}</th>
                <td className="text-end text-nowrap">{money(v.netAmount)}</td>
              </tr>
              <tr>
                <th scope="row">{t(v.reverseCharge ? "invoices.vatNone" : "billing.receipt.vat")}</th>
                <td className="text-end text-nowrap invoice-vat">{money(v.vatAmount)}</td>
              </tr>
            </>
          ) : null}
          <tr className="fw-bold">
            <th scope="row">{t("invoices.invoice.toPay")}</th>
            <td className="text-end text-nowrap invoice-total">{money(v.totalAmount)}</td>
          </tr>
        </tbody>
      </table>
      {!v.seller.vatOnReceipts ? (
        <p className="invoice-no-vat">{t("billing.receipt.noVat")}</p>
      ) : v.reverseCharge ? (
        <p className="fw-bold invoice-reverse-charge">{t("invoices.reverseCharge")}</p>
      ) : null}
      <h2 className="h6">{t("invoices.invoice.items", { count: v.itemCount })}</h2>
      <ul className="text-break">
        {v.items.map((name, i) => (
          <li key={i}>{name}</li>
        ))}
      </ul>
      {v.simulated ? <p className="small text-body-secondary">{t("invoices.invoice.testNote")}</p> : null}
      {/* An organisation's purchase: no consumer right of withdrawal, and why (decision 041). */}
      <p className="small text-body-secondary invoice-withdrawal">{t("orders.withdrawal.businessNote")}</p>
      <div className="d-flex flex-wrap gap-2">
        {v.canMarkPaid ? (
          <Form method="post">
            <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
              {t("invoices.invoice.markPaid")}
            </button>
          </Form>
        ) : null}
        {v.providerUrl ? (
          <a href={v.providerUrl} className="btn btn-primary" rel="noopener noreferrer">
            {t("invoices.invoice.openProvider")}
          </a>
        ) : null}
        <Link to="/order" className="btn btn-outline-secondary">
          {t("invoices.invoice.back")}
        </Link>
      </div>
    </section>
  );
}

const stateBadge: Record<string, string> = {
  open: "text-bg-info",
  overdue: "text-bg-danger",
  paid: "text-bg-success",
  void: "text-bg-secondary",
  lapsed: "text-bg-danger",
};
