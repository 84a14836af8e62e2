import { useTranslation } from "~/i18n/react";
import { data, Form, redirect, useLoaderData, useSearchParams } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { formatPrice } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import type { FormMessage } from "~/lib/forms/form";
import { z } from "zod";
import { listOrdersForStaff, simulateFailedRenewal, simulateRenewal } from "~/server/orders/billing.service.server";
import { clearOverdueInvoice, releaseInvoiceShipmentByStaff } from "~/server/orders/invoice.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import type { Route } from "./+types/admin.orders";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["billing", "orderErrors", "orders"] };

/**
 * /admin/orders (staff only, 404 to everyone else): recent orders. With the test provider
 * each paid order has "Simulate renewal" / "Simulate failed renewal" (decision 016), so the
 * whole lifecycle can be tried out of the box; with PAYMENTS=stripe the buttons are not
 * shown and the action answers 404.
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "billing.admin"), { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return data(await listOrdersForStaff(await getDeps()));
}

/** Messages a redirect back here may ask for (?done=…). */
const DONE = {
  renewal: "billing.admin.simulated.renewal",
  failed: "billing.admin.simulated.failed",
  released: "billing.admin.done.released",
  cleared: "billing.admin.done.cleared",
} as const;

/** A staff button's refusal on the page's alert; an order not found (or no such intent) is the bare 404. */
function refused(refusal: { formError: FormMessage | null }, init: ResponseInit, err?: unknown) {
  if (err instanceof OrderError && err.code === "notFound") throw data(null, { status: init.status });
  return data({ formError: refusal.formError }, init);
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireAdmin(request);
  const deps = await getDeps();
  const button = (work: (orderId: string) => Promise<unknown>, done: keyof typeof DONE) =>
    intent({
      schema: z.object({
        orderId: z
          .unknown()
          .optional()
          .transform((v) => String(v ?? "")),
      }),
      async handle({ orderId }) {
        await work(orderId);
        return redirect(`/admin/orders?done=${done}`);
      },
    });
  return intentAction(
    request,
    { errors: orderErrors, errorsOn: "form", otherwise: "none", refused },
    {
      simulateRenewal: button((id) => simulateRenewal(deps, id), "renewal"),
      simulateFailedRenewal: button((id) => simulateFailedRenewal(deps, id), "failed"),
      releaseShipment: button((id) => releaseInvoiceShipmentByStaff(deps, id), "released"),
      clearInvoice: button((id) => clearOverdueInvoice(deps, id, staff.email), "cleared"),
      none: intent({ schema: z.object({}), handle: () => Promise.reject(new OrderError("notFound")) }),
    },
  );
}

export default function AdminOrders({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { orders, simulation } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <section className="py-4" aria-labelledby="orders-title">
      <h1 id="orders-title">{t("billing.admin.title")}</h1>
      <FormAlert message={actionData?.formError} />
      {done && done in DONE ? (
        <div className="alert alert-success" role="status">
          {t(DONE[done as keyof typeof DONE])}
        </div>
      ) : null}
      {simulation ? <p className="alert alert-warning">{t("billing.admin.testMode")}</p> : null}
      {orders.length === 0 ? (
        <p>{t("billing.admin.empty")}</p>
      ) : (
        <ul className="list-group admin-orders">
          {orders.map((o) => (
            <li key={o.id} className="list-group-item">
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <span className="text-break fw-semibold">{o.email}</span>
                <span className="d-flex flex-wrap gap-2 align-items-center">
                  <span className="badge text-bg-secondary">{t(`billing.admin.status.${o.status}`)}</span>
                  {o.paymentFailed ? <span className="badge text-bg-danger">{t("billing.admin.failed")}</span> : null}
                  {o.lapsed ? <span className="badge text-bg-dark">{t("billing.admin.lapsed")}</span> : null}
                  {o.method === "invoice" ? (
                    <span className="badge text-bg-info">
                      {t("billing.admin.invoice", { number: o.invoiceNumber ?? "" })}
                    </span>
                  ) : null}
                  {o.blocksInvoicing ? (
                    <span className="badge text-bg-danger">{t("billing.admin.blocksInvoicing")}</span>
                  ) : null}
                  {o.cleared ? <span className="badge text-bg-light">{t("billing.admin.cleared")}</span> : null}
                  <time dateTime={new Date(o.createdAt).toISOString()} className="small text-body-secondary">
                    {formatDateTime(o.createdAt, lang)}
                  </time>
                </span>
              </div>
              <p className="mb-1 small text-break">
                {t("billing.admin.items")}: {o.items.join(", ")}
              </p>
              <p className="mb-1 small">
                {t("billing.admin.total")}: {formatPrice(o.totalAmount / 100, o.currency === "SEK" ? "sv" : "en")} (
                {t(`billing.receipt.periods.${o.period}`)})
                {o.paidUntil ? ` · ${t("billing.admin.paidUntil", { date: formatDate(o.paidUntil, lang) })}` : ""}
              </p>
              {o.awaitingRelease || o.blocksInvoicing ? (
                <Form method="post" className="d-flex flex-wrap gap-2 mb-2">
                  <input type="hidden" name="orderId" value={o.id} />
                  {o.awaitingRelease ? (
                    <button
                      type="submit"
                      name="intent"
                      value="releaseShipment"
                      className="btn btn-sm btn-outline-primary"
                    >
                      {t("billing.admin.releaseShipment")}
                    </button>
                  ) : null}
                  {o.blocksInvoicing ? (
                    <button type="submit" name="intent" value="clearInvoice" className="btn btn-sm btn-outline-danger">
                      {t("billing.admin.clearInvoice")}
                    </button>
                  ) : null}
                </Form>
              ) : null}
              {simulation && o.status === "paid" && o.provider === "test" ? (
                <Form method="post" className="d-flex flex-wrap gap-2">
                  <input type="hidden" name="orderId" value={o.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="simulateRenewal"
                    className="btn btn-sm btn-outline-primary"
                  >
                    {t("billing.admin.simulateRenewal")}
                  </button>
                  {o.renewing && !o.lapsed ? (
                    <button
                      type="submit"
                      name="intent"
                      value="simulateFailedRenewal"
                      className="btn btn-sm btn-outline-danger"
                    >
                      {t("billing.admin.simulateFailed")}
                    </button>
                  ) : null}
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
