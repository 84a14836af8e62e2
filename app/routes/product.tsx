import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { formatFee } from "~/lib/fee";
import { isProductId } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { getSessionUser } from "~/server/auth/session.server";
import { getItemPageView } from "~/server/items/items.service.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/product";

/**
 * The finder's page, /product/{id} and the sticker's short /{id}. Kept tiny: plain markup
 * (no react-bootstrap, no QR code), complete in the server's HTML, so a finder's phone
 * shows it without waiting for JavaScript (brief section 4).
 */
/** Translation areas the page needs (the finder's phone downloads only these at first). */
export const handle = { i18n: ["layout", "errors", "consent", "items"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "items.page"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isProductId(params.id)) throw data(null, { status: 404 });
  const [{ database }, viewer] = await Promise.all([getRuntime(), getSessionUser(request)]);
  const view = await getItemPageView(database.db, params.id, viewer?.ref ?? null);
  if (view.kind === "notFound") throw data(null, { status: 404 });
  // Owner-dependent and possibly private: never kept by shared caches.
  return data({ id: params.id, view }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function ItemPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, view } = loaderData;

  useEffect(() => {
    // The spec's short address-bar value, 400 ms after load; /{id} is a real route, so a
    // reload shows this page. history.replaceState keeps React Router's state untouched.
    const timer = window.setTimeout(() => {
      if (window.location.pathname !== `/${id}`) window.history.replaceState(window.history.state, "", `/${id}`);
    }, 400);
    return () => window.clearTimeout(timer);
  }, [id]);

  if (view.kind !== "item") {
    return (
      <section className="py-4 item-page" aria-labelledby="item-title">
        <h1 id="item-title" className="h3">
          {t("items.page.notPaid")}
        </h1>
        <p>{t("items.page.notPaidHelp")}</p>
      </section>
    );
  }
  return (
    <section className="py-4 item-page" aria-labelledby="item-title">
      {view.ownerMustActivate ? (
        <div className="alert alert-warning" role="status">
          {t("items.page.notActivated")}{" "}
          <Link to="/order" className="alert-link">
            {t("items.page.activate")}
          </Link>
        </div>
      ) : null}
      <p className="fs-4 fw-bold mb-2">{t("items.page.feeLead", { fee: formatFee(view.findFee, view.currency) })}</p>
      <h1 id="item-title" className="text-break">
        {view.name}
      </h1>
      <p>{t("items.page.typeLine", { type: t(`items.types.${view.prodType}`, { defaultValue: view.prodType }) })}</p>
      <p>{t("items.page.advice")}</p>
      <h2 className="h4">{t("items.page.contactTitle")}</h2>
      <p className="contact-info text-break">{view.contactInfo}</p>
    </section>
  );
}
