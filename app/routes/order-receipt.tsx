import { SellerDetails } from "~/components/SellerDetails";
import { useTranslation } from "~/i18n/react";
import { Link } from "react-router";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage, serviceErrorResponse } from "~/server/http/errors.server";
import { requestContext } from "~/server/context";
import { getReceipt, parseReceiptNumber } from "~/server/orders/billing.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import type { Route } from "./+types/order-receipt";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "seller", "dashboard", "invoices", "orderErrors", "orders", "swish"] };

/**
 * /order/{orderId}/receipt[?number=N]: a payment's receipt with VAT (decision 016), owner
 * only; the latest receipt of the order without a number. The PDF is beside it.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "billing.receipt"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const number = parseReceiptNumber(new URL(request.url).searchParams.get("number"));
  const lang = context.get(requestContext).lang;
  const receipt =
    number === "invalid"
      ? serviceErrorResponse(orderErrors, new OrderError("notFound"))
      : await orErrorPage(
          orderErrors,
          getReceipt(await getDeps(), { userId: user.ref, orderId: params.id, number, lang }),
        );
  return { receipt };
}

export default function OrderReceipt({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const r = loaderData.receipt;
  const money = (minor: number) => formatPrice(minor / 100, r.currency === "SEK" ? "sv" : "en");
  return (
    <section className="py-4 col-lg-8" aria-labelledby="receipt-title">
      <h1 id="receipt-title">{t("dashboard.billing.receiptTitle", { number: r.number })}</h1>
      <div className="row g-3 mb-3">
        <div className="col-sm-6">
          <h2 className="h6">{t("billing.receipt.seller")}</h2>
          <SellerDetails seller={r.seller} />
        </div>
        <div className="col-sm-6">
          <h2 className="h6">{t("billing.receipt.buyer")}</h2>
          <address className="mb-0 text-break">
            {[r.buyer.name, ...r.buyer.lines].filter(Boolean).map((l, i) => (
              <span key={i} className="d-block">
                {l}
              </span>
            ))}
          </address>
        </div>
      </div>
      <dl className="row mb-3">
        <dt className="col-6 col-sm-4">{t("billing.receipt.number")}</dt>
        <dd className="col-6 col-sm-8">{r.number}</dd>
        <dt className="col-6 col-sm-4">{t("billing.receipt.date")}</dt>
        <dd className="col-6 col-sm-8">{formatDate(r.paidAt, lang)}</dd>
        <dt className="col-6 col-sm-4">{t("billing.receipt.period")}</dt>
        <dd className="col-6 col-sm-8">
          {formatDate(r.periodStart, lang)} – {formatDate(r.periodEnd, lang)}
        </dd>
      </dl>
      <h2 className="h6">
        {t("billing.receipt.line", { count: r.count, period: t(`billing.receipt.periods.${r.period}`) })}
      </h2>
      <ul className="text-break">
        {r.items.map((name, i) => (
          <li key={i}>{name}</li>
        ))}
      </ul>
      <table className="table receipt-amounts">
        <tbody>
          <tr>
            <th scope="row">{t("billing.receipt.package")}</th>
            <td className="text-end">{money(r.packageAmount)}</td>
          </tr>
          {r.discountAmount ? (
            <tr>
              <th scope="row">{t("billing.receipt.discount")}</th>
              <td className="text-end">{money(-r.discountAmount)}</td>
            </tr>
          ) : null}
          {/* VAT only from a seller with a VAT number (decision 057). */}
          {r.seller.vatOnReceipts ? (
            <>
              <tr>
                <th scope="row">{t("billing.receipt.net")}</th>
                <td className="text-end">{money(r.netAmount)}</td>
              </tr>
              <tr>
                <th scope="row">{t(r.reverseCharge ? "invoices.vatNone" : "billing.receipt.vat")}</th>
                <td className="text-end">{money(r.vatAmount)}</td>
              </tr>
            </>
          ) : null}
          <tr className="fw-bold">
            <th scope="row">{t("billing.receipt.total")}</th>
            <td className="text-end">{money(r.totalAmount)}</td>
          </tr>
        </tbody>
      </table>
      {!r.seller.vatOnReceipts ? (
        <p className="receipt-no-vat">{t("billing.receipt.noVat")}</p>
      ) : r.reverseCharge ? (
        <p className="fw-bold receipt-reverse-charge">{t("invoices.reverseCharge")}</p>
      ) : null}
      {r.paymentKind !== "subscription" ? (
        <p className="receipt-paid-with">
          {t("swish.receipt.paidWith", { method: t(`swish.methods.${r.paymentKind}`) })}
        </p>
      ) : null}
      {r.withdrawal?.kind === "open" ? (
        <p className="receipt-withdrawal">
          {t("orders.withdrawal.receipt", { date: formatDate(r.withdrawal.until, lang) })}{" "}
          <Link to={`/order/${r.orderId}/withdraw`}>{t("orders.withdrawal.receiptLink")}</Link>
        </p>
      ) : r.withdrawal?.kind === "withdrawn" ? (
        <p className="receipt-withdrawal">
          {t("dashboard.billing.withdrawn", {
            date: formatDate(r.withdrawal.at, lang),
            refund: money(r.withdrawal.refund),
          })}
        </p>
      ) : r.withdrawal?.kind === "business" ? (
        <p className="small text-body-secondary receipt-withdrawal">{t("orders.withdrawal.businessNote")}</p>
      ) : null}
      <div className="d-flex flex-wrap gap-2">
        <a href={`/order/${r.orderId}/receipt.pdf?number=${r.number}`} className="btn btn-primary">
          {t("billing.receipt.pdf")}
        </a>
        <Link to="/dashboard" className="btn btn-outline-secondary">
          {t("billing.receipt.back")}
        </Link>
      </div>
    </section>
  );
}
