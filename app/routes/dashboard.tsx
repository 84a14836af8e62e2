import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { ItemCard } from "~/components/ItemCard";
import { pageMeta } from "~/lib/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { takeFlash } from "~/server/flash.server";
import { listOwnedItems } from "~/server/items/items.service.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/dashboard";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.dashboard");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  // Spec: users without a name go to / (and without a user to /login).
  const user = await requireNamedUser(request, "/");
  const { database, config } = await getRuntime();
  const items = await listOwnedItems(database.db, user.ref);
  const flash = takeFlash(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (flash.clear) headers.append("Set-Cookie", flash.clear);
  return data(
    {
      origin: config.baseUrl.origin,
      items: items.map(({ payment: _payment, ...card }) => card),
      flash: flash.message,
    },
    { headers },
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, origin, flash } = loaderData;
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
              <ItemCard item={item} origin={origin} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
