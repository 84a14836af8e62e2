import { lazy, Suspense } from "react";
import { useTranslation } from "~/i18n/react";
import { data, Link } from "react-router";
import { BillingSection } from "~/components/BillingSection";
import { FormAlert } from "~/components/form/FormAlert";
import { VerifyEmailNotice } from "~/components/VerifyEmailNotice";
import { ItemCard } from "~/components/ItemCard";
import { ItemFilterForm } from "~/components/ItemFilterForm";
import { Pager } from "~/components/Pager";
import { DASHBOARD_PAGE_SIZE, filterQuery, isFiltered } from "~/lib/domain/item-filter";
import { parseItemQuery } from "~/lib/domain/item-query";
import { StickerShipments } from "~/components/StickerShipments";
import { formatDate } from "~/lib/domain/dates";
import { pageMeta } from "~/lib/domain/meta";
import { can } from "~/lib/domain/organisation-roles";
import { useLang } from "~/lib/hooks/use-lang";
import { useRootData } from "~/root";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { activeScopeOf, organisationIdOf } from "~/server/organisations/scope.http.server";
import { flashIsSuccess, takeFlash } from "~/server/flash.server";
import { vapidPublicKey } from "~/server/push/vapid.server";
import { ownerShipments } from "~/server/fulfil/fulfil.service.server";
import { dashboardAction } from "~/server/items/dashboard-page.http.server";
import { getDashboard } from "~/server/items/dashboard.service.server";
import { getBillingOverview, renewalConfirmation } from "~/server/orders/billing.service.server";
import type { Route } from "./+types/dashboard";
import { Hydrated } from "~/components/Hydrated";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/**
 * Offered only right after an item is saved (decision 033): loaded then, not with every
 * dashboard (the signed-in pages' weight budget, decision 042). Rendered only once the page
 * has hydrated: it needs the browser's push subscription, so the server renders nothing
 * for it, and its module is not fetched before the page is interactive.
 */
const PushToggle = lazy(() => import("~/components/PushDevices").then((m) => ({ default: m.PushToggle })));

export const handle = {
  i18n: ["common", "dashboard", "flash", "itemTypes", "orderErrors", "push", "swish"],
};

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "dashboard.page");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  // Spec: users without a name go to / (and without a user to /login).
  const user = await requireNamedUser(request, "/");
  const deps = await getDeps();
  // The filter and page come from a GET form and page links (decision 021): bad values are ignored.
  const url = new URL(request.url);
  const query = parseItemQuery(url.searchParams);
  // The active scope's items (decision 022): personal, or those registered for the organisation.
  const scope = await activeScopeOf(deps, request, user.ref);
  const [dashboard, shipments, billing] = await Promise.all([
    getDashboard(deps, user.ref, query, organisationIdOf(scope)),
    ownerShipments(deps, user.ref),
    getBillingOverview(deps, user.ref),
  ]);
  const flash = takeFlash(request);
  // Right after an item is saved, the dashboard offers notifications on this device (decision 034).
  const pushKey = flash.message === "common.saved" ? await vapidPublicKey(deps) : null;
  const headers = new Headers();
  if (flash.clear) headers.append("Set-Cookie", flash.clear);
  return data(
    {
      ...dashboard,
      filter: { q: query.q, type: query.type, paid: query.paid, lost: query.lost },
      shipments,
      billing,
      // CSV import/export: the personal scope, or an organisation's admins (members get 404 there).
      csvLinks: can(scope, "csv"),
      // The heading names the organisation whose items these are (decision 038).
      organisationName: scope.kind === "organisation" ? scope.name : null,
      // After cancel / resume (POST-redirect-GET): which confirmation, about which order.
      billingDone: renewalConfirmation(billing, url.searchParams.get("billing"), url.searchParams.get("order")),
      flash: flash.message,
      flashOk: flashIsSuccess(flash.message),
      pushKey,
    },
    { headers },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  return dashboardAction(request, await getDeps(), user.ref);
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { items, origin, flash, flashOk, shipments, billing, billingDone, pageInfo, total, filter, pushKey } =
    loaderData;
  // Counted in SQL over all the owner's items, not over the page shown.
  const unactivated = loaderData.unpaid;
  const from = (pageInfo.page - 1) * DASHBOARD_PAGE_SIZE + 1;
  const unreadMessages = useRootData()?.unreadMessages ?? 0;
  return (
    <section className="py-4" aria-labelledby="dashboard-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 id="dashboard-title" className="mb-0 text-break">
          {loaderData.organisationName
            ? t("dashboard.page.titleOrganisation", { name: loaderData.organisationName })
            : t("dashboard.page.title")}
        </h1>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/messages" className="btn btn-outline-primary">
            {t("dashboard.relay.link")}
            {unreadMessages > 0 ? (
              <span className="badge rounded-pill text-bg-primary ms-2">
                {t("layout.menu.unread", { count: unreadMessages })}
              </span>
            ) : null}
          </Link>
          <Link to="/product/register" className="btn btn-primary">
            {t("dashboard.page.register")}
          </Link>
          <Link to="/claim" className="btn btn-outline-primary">
            {t("dashboard.page.claim")}
          </Link>
        </div>
      </div>
      {loaderData.csvLinks ? (
        <p className="d-flex flex-wrap gap-3 dashboard-csv">
          <Link to="/dashboard/import">{t("dashboard.page.importCsv")}</Link>
          <a href="/dashboard/export.csv" download>
            {t("dashboard.page.exportCsv")}
          </a>
        </p>
      ) : null}
      {unreadMessages > 0 ? (
        <div className="alert alert-info" role="status">
          {t("dashboard.relay.unread", { count: unreadMessages })}{" "}
          <Link to="/messages" className="alert-link">
            {t("dashboard.relay.open")}
          </Link>
        </div>
      ) : null}
      <VerifyEmailNotice />
      {flash ? (
        <div className={`alert ${flashOk ? "alert-success" : "alert-danger"}`} role={flashOk ? "status" : "alert"}>
          {t(flash)}
        </div>
      ) : null}
      {pushKey ? (
        <Hydrated>
          {(hydrated) =>
            hydrated ? (
              <Suspense fallback={null}>
                <PushToggle publicKey={pushKey} compact />
              </Suspense>
            ) : null
          }
        </Hydrated>
      ) : null}
      <FormAlert message={actionData?.formError} />
      {actionData?.switched ? (
        <div className="alert alert-success" role="status">
          {t(`dashboard.items.${actionData.switched}`)}
        </div>
      ) : null}
      {billingDone ? (
        <FormAlert
          variant="success"
          message={{
            key: `dashboard.billing.${billingDone.kind}`,
            params: {
              date: formatDate(billingDone.date, lang),
              refund: "refund" in billingDone ? (billingDone.refund ?? "") : "",
            },
          }}
        />
      ) : null}
      {actionData?.endsAt ? (
        <div className="alert alert-success" role="status">
          {t("dashboard.orderStatus.cancelled", { date: formatDate(actionData.endsAt, lang) })}
        </div>
      ) : null}
      {unactivated > 0 ? (
        <div className="alert alert-warning" role="status">
          {t("dashboard.page.unactivated", { count: unactivated })}{" "}
          <Link to="/order" className="alert-link">
            {t("dashboard.page.activateLink")}
          </Link>
        </div>
      ) : null}
      {total === 0 ? (
        <p className="lead">{t("dashboard.page.empty")}</p>
      ) : (
        <>
          {/* An owner whose items fit on one page needs neither filter nor pager. */}
          {total > DASHBOARD_PAGE_SIZE || isFiltered(filter) ? (
            <>
              <ItemFilterForm
                key={filterQuery(filter, 1)}
                filter={filter}
                action="/dashboard"
                idPrefix="dashboard-filter"
              />
              <p className="dashboard-range" role="status">
                {isFiltered(filter) ? `${t("dashboard.filter.of", { count: pageInfo.matching, total })} ` : null}
                {items.length > 0
                  ? t("dashboard.filter.range", { from, to: from + items.length - 1, count: pageInfo.matching })
                  : null}
              </p>
            </>
          ) : null}
          {items.length === 0 ? (
            <p className="lead dashboard-none">
              {t("dashboard.filter.none")} <Link to="/dashboard">{t("dashboard.filter.clear")}</Link>
            </p>
          ) : (
            <ul className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3 list-unstyled">
              {items.map((item, index) => (
                <li key={item.id} className="col">
                  <ItemCard item={item} origin={origin} lang={lang} first={index === 0} />
                </li>
              ))}
            </ul>
          )}
          <Pager
            info={pageInfo}
            hrefFor={(page) => `/dashboard${filterQuery(filter, page)}`}
            label={t("common.pager.label")}
          />
        </>
      )}
      <StickerShipments shipments={shipments} />
      <BillingSection billing={billing} lang={lang} />
    </section>
  );
}
