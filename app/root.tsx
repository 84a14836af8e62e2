import { useEffect } from "react";
import { useTranslation } from "~/i18n/react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { ConsentOverlay } from "./components/ConsentOverlay";
import { FindCodeForm } from "./components/FindCodeForm";
import { LowPriorityScripts } from "./components/LowPriorityScripts";
import { SiteFooter } from "./components/SiteFooter";
import { SiteHeader } from "./components/SiteHeader";
import { useNonce } from "./components/nonce";
import { LeanRenderContext, useLeanPageAssets, type LeanHandle } from "./lean/lean-page";
import { pageAreas } from "./i18n/areas";
import { DEFAULT_LANG, type Lang } from "./i18n/config";
import { getT } from "./i18n/i18n";
import { ensureAllAreas } from "./i18n/load.client";
import { BRAND } from "./lib/domain/brand";
import { useLang } from "./lib/hooks/use-lang";
import { useFragmentFocus } from "./lib/hooks/use-fragment-focus";
import { requestContext } from "./server/context";
import stylesHref from "./styles/app.scss?url";
import { rootData } from "./server/root.http.server";

// The stylesheet; the icon is in the Layout, which lean pages share. With a precedence React
// writes it among the head's stylesheets, before the module preloads of <Scripts> (without
// one it came after ~130 KB of them, and the first paint waited; decision 045).
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesHref, precedence: "default" }];

/** Default title; pages override it, and error screens get theirs here. */
export const meta: Route.MetaFunction = ({ error, loaderData }) => {
  const t = getT(loaderData?.lang ?? DEFAULT_LANG);
  if (error) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    const key =
      status === 404
        ? "errors.notFound.title"
        : status === 410
          ? "errors.replaced.title"
          : status === 400
            ? "errors.badRequest.title"
            : status === 503
              ? "errors.unavailable.title"
              : "errors.unexpected.title";
    return [{ title: `${t(key)} | ${BRAND}` }];
  }
  return [{ title: BRAND }];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const info = context.get(requestContext);
  return { lang: info.lang, consent: info.consent, ...(await rootData(request, context)) };
}

/**
 * A page loads only its translation areas at first (the root's and its route's `handle.i18n`,
 * app/i18n/areas.ts); before the first client-side navigation the rest of the language follows.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async (_args, next) => {
    // The first load runs this too, before hydration: the page has its areas already.
    if (document.documentElement.dataset.hydrated) await ensureAllAreas();
    return next();
  },
];

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  const { t } = useTranslation();
  // Without root data (its loader failed) the request's i18n language still holds.
  const i18nLang = useLang();
  const lang: Lang = data?.lang ?? i18nLang;
  const blocked = data ? !data.consent : false;
  const matches = useMatches();
  const last = matches[matches.length - 1];
  const handle = last?.handle as ({ i18n?: readonly string[] } & LeanHandle) | undefined;
  // The root's areas and the page's: all the browser loads before hydrating (decision 020).
  const areas = pageAreas(handle?.i18n);
  // A lean page (the anonymous finder page, docs/decisions/020) ships no React Router
  // JavaScript: inline stylesheet, its one small script, no hydration data. Only the
  // server has the assets, so a client-side navigation always renders the full layout.
  // So is 'Page not found' (and a replaced sticker's page) for an anonymous visitor, whichever
  // route's loader answered it: a mistyped short URL is as likely as a mistyped path.
  const leanAssets = useLeanPageAssets();
  const error = useRouteError();
  const leanError = isRouteErrorResponse(error) && (error.status === 404 || error.status === 410) && !data?.user;
  const lean =
    leanAssets && (leanError || (last && handle?.lean?.(last.loaderData, { signedIn: Boolean(data?.user) })))
      ? leanAssets
      : null;

  useEffect(() => {
    // Lets end-to-end tests wait until clicks are handled by React.
    document.documentElement.dataset.hydrated = "true";
  }, []);

  return (
    <html lang={lang} dir="ltr" data-i18n={lean ? undefined : areas?.join(" ")}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* Stylesheets need no nonce (style-src 'self'); an empty one keeps the server's
            nonce off <link>s, where browsers do not hide it and hydration would differ. */}
        {lean ? (
          // Allowed by its hash in style-src: no second round trip before the first paint.
          <style dangerouslySetInnerHTML={{ __html: lean.css }} />
        ) : (
          <Links nonce="" />
        )}
        {/* Pages the app hydrates: a PNG. An SVG icon is decoded as the page's first isolated
            SVG document, 12–16 ms on the main thread after load (decision 045); the lean
            pages keep their 174-byte SVG. */}
        {lean ? (
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        ) : (
          <link rel="icon" href="/icons/favicon-32.png" type="image/png" sizes="32x32" />
        )}
        {/* Installable for signed-in owners (web push on iPhones needs the home-screen app,
            decision 033): anonymous pages stay without the extra request. */}
        {data?.user && !lean ? (
          <>
            <link rel="manifest" href="/manifest.webmanifest" />
            <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
            <meta name="theme-color" content="#0d6efd" />
          </>
        ) : null}
      </head>
      <body>
        <a className="visually-hidden-focusable skip-link" href="#main">
          {t("layout.skipToContent")}
        </a>
        <div className="site" inert={blocked || undefined}>
          {data?.testPayments ? (
            <div className="test-banner" role="note">
              {t("layout.testModeBanner")}
            </div>
          ) : null}
          <SiteHeader
            user={data?.user ?? null}
            unreadMessages={data?.unreadMessages ?? 0}
            scopeMenu={data?.scopeMenu ?? null}
          />
          <main id="main" className="site-main container" tabIndex={-1}>
            <LeanRenderContext value={Boolean(lean)}>{children}</LeanRenderContext>
          </main>
          <SiteFooter />
        </div>
        {blocked ? <ConsentOverlay lang={lang} /> : null}
        {lean ? (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: lean.script }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <LowPriorityScripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // A form's redirect back to `#…` puts the focus there (a status message, a heading).
  useFragmentFocus();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="py-5" aria-labelledby="not-found-title">
        <h1 id="not-found-title">{t("errors.notFound.title")}</h1>
        <p>{t("errors.notFound.intro")}</p>
        <ul>
          <li>{t("errors.notFound.hintReloaded")}</li>
          <li>{t("errors.notFound.hintStale")}</li>
          <li>{t("errors.notFound.hintMistyped")}</li>
        </ul>
        <p>
          <a href="/">{t("errors.notFound.home")}</a>
        </p>
        <FindCodeForm id="not-found-code" />
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 410) {
    // A sticker replaced with a new code (decision 015).
    return (
      <section className="py-5" aria-labelledby="replaced-title">
        <h1 id="replaced-title">{t("errors.replaced.title")}</h1>
        <p>{t("errors.replaced.text")}</p>
        <FindCodeForm id="replaced-code" />
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 400) {
    return (
      <section className="py-5" aria-labelledby="bad-request-title">
        <h1 id="bad-request-title">{t("errors.badRequest.title")}</h1>
        <p>{t("errors.badRequest.text")}</p>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 503) {
    return (
      <section className="py-5" aria-labelledby="unavailable-title">
        <h1 id="unavailable-title">{t("errors.unavailable.title")}</h1>
        <p>{t("errors.unavailable.text")}</p>
      </section>
    );
  }
  let detail: string;
  if (isRouteErrorResponse(error)) {
    detail = `${error.status} ${error.statusText}`.trim();
  } else if (error instanceof Error) {
    // React Router replaces server errors' messages in production builds, so no
    // internals reach the page; client errors show their own message.
    detail = error.message;
  } else {
    detail = t("errors.unexpected.generic");
  }
  return (
    <section className="py-5" aria-labelledby="error-title">
      <h1 id="error-title">{t("errors.unexpected.title")}</h1>
      <p className="error-detail">{detail}</p>
    </section>
  );
}
