import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { ItemCard } from "~/components/ItemCard";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { OrderFormError } from "~/lib/order-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { takeFlash } from "~/server/flash.server";
import { listOwnedItems } from "~/server/items/items.service.server";
import { cancelRenewal, isOrderId, listItemSubscriptions, OrderError } from "~/server/orders/orders.service.server";
import { getPaymentProvider } from "~/server/orders/payments.server";
import { readForm } from "~/server/http/form.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/dashboard";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.dashboard");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // Spec: users without a name go to / (and without a user to /login).
  const user = await requireNamedUser(request, "/");
  const { database, config } = await getRuntime();
  const [items, subscriptions] = await Promise.all([
    listOwnedItems(database.db, user.ref),
    listItemSubscriptions(database.db, user.ref),
  ]);
  const flash = takeFlash(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (flash.clear) headers.append("Set-Cookie", flash.clear);
  return data(
    {
      origin: config.baseUrl.origin,
      lang: context.get(requestContext).lang,
      // Paid items show their subscription: renews on …, or active until … after a cancel.
      items: items.map(({ payment: _payment, ...card }) => ({
        ...card,
        subscription: card.paid ? (subscriptions[card.id] ?? null) : null,
      })),
      flash: flash.message,
    },
    { headers },
  );
}

type CancelResult = { error: OrderFormError | null; endsAt: number | null };

/** Cancel renewal of one of the owner's orders (issue #6: minimum term 6 months). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  const form = await readForm(request);
  const orderId = form.get("orderId");
  if (form.get("intent") !== "cancelRenewal" || !isOrderId(orderId)) {
    return data<CancelResult>({ error: "orders.errors.notFound", endsAt: null }, { status: 404 });
  }
  const { database, config } = await getRuntime();
  try {
    const { endsAt } = await cancelRenewal(database.db, { userId: user.ref, orderId }, getPaymentProvider(config));
    return data<CancelResult>({ error: null, endsAt });
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    return data<CancelResult>({ error: err.code, endsAt: null }, { status: err.status });
  }
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, origin, flash, lang } = loaderData;
  const unactivated = items.filter((i) => !i.paid).length;
  return (
    <section className="py-4" aria-labelledby="dashboard-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 id="dashboard-title" className="mb-0">
          {t("items.dashboard.title")}
        </h1>
        <Link to="/product/register" className="btn btn-primary">
          {t("items.dashboard.register")}
        </Link>
      </div>
      {flash ? (
        <div className="alert alert-danger" role="alert">
          {t(flash)}
        </div>
      ) : null}
      {actionData?.error ? (
        <div className="alert alert-danger" role="alert">
          {t(actionData.error)}
        </div>
      ) : null}
      {actionData?.endsAt ? (
        <div className="alert alert-success" role="status">
          {t("orders.status.cancelled", { date: formatDate(actionData.endsAt, lang) })}
        </div>
      ) : null}
      {unactivated > 0 ? (
        <div className="alert alert-warning" role="status">
          {t("items.dashboard.unactivated", { count: unactivated })}{" "}
          <Link to="/order" className="alert-link">
            {t("items.dashboard.activateLink")}
          </Link>
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="lead">{t("items.dashboard.empty")}</p>
      ) : (
        <ul className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3 list-unstyled">
          {items.map((item) => (
            <li key={item.id} className="col">
              <ItemCard item={item} origin={origin} lang={lang} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
