import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { PassThrough } from "node:stream";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { NonceContext } from "./components/nonce";
import { LeanPageContext } from "./lean/lean-page";
import { leanPageAssets } from "./server/http/lean-page.server";
import { createI18n, serverI18n } from "./i18n/i18next.server";
import type { Lang } from "./i18n/config";
import { I18nProvider, type I18n } from "./i18n/react";
import { allResources } from "./i18n/resources.server";
import { requestContext } from "./server/context";
import { failedOnDatabase, isDatabaseUnavailable, markDatabaseUnavailable } from "./server/http/unavailable.server";
import { logger, redactUrl } from "./server/logger.server";

export const streamTimeout = 5_000;

/**
 * One i18next instance per language, made once, in the language the loaders decided on:
 * making one per request was a millisecond of every page (decision 045). Nothing on the
 * server changes an instance's language or resources (LanguageLinks does, in the browser).
 */
const i18ns = new Map<Lang, I18n>();
function i18nFor(lang: Lang): I18n {
  let i18n = i18ns.get(lang);
  if (!i18n) {
    i18n = serverI18n(createI18n(lang, { [lang]: allResources[lang] }));
    i18ns.set(lang, i18n);
  }
  return i18n;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (failedOnDatabase(loadContext)) {
    if (responseStatusCode !== 503) {
      // A loader failed because the database is down: React Router renders again with
      // this thrown response as the root error, so the page is the translated 503 page.
      throw new Response(null, { status: 503, statusText: "Service Unavailable" });
    }
    responseHeaders.set("Retry-After", "30");
    responseHeaders.set("Cache-Control", "no-store");
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, lang } = loadContext.get(requestContext);
  const i18n = i18nFor(lang);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const logRenderError = (err: unknown) =>
      logger.error({ err, url: redactUrl(new URL(request.url).pathname) }, "render error inside a Suspense boundary");
    /** Errors before the page was sent: inside a boundary if the shell completes (logged then). */
    const earlyErrors: unknown[] = [];
    // Browsers get the shell as soon as it is ready and the rest streamed after it; bots,
    // which do not run the script that puts streamed parts in place, the whole page
    // (decision 045). A page without a Suspense boundary is all shell: the same bytes.
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <LeanPageContext value={leanPageAssets}>
          <I18nProvider i18n={i18n}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nProvider>
        </LeanPageContext>
      </NonceContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          earlyErrors.forEach(logRenderError);
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          // React Router answers with the error page and logs it (handleError).
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error inside a Suspense boundary lets the page complete (the browser retries
          // that part): logged once the page is sent. One in the shell rejects through
          // onShellError above (React calls onError first), and React Router logs it.
          if (shellRendered) logRenderError(error);
          else earlyErrors.push(error);
        },
      },
    );
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: object }) {
  if (request.signal.aborted) return;
  if (error instanceof Response) return; // our own 503 re-render (see above)
  if (isDatabaseUnavailable(error)) {
    markDatabaseUnavailable(context);
    logger.warn({ err: error, url: redactUrl(new URL(request.url).pathname) }, "database unavailable");
    return;
  }
  logger.error({ err: error, url: redactUrl(new URL(request.url).pathname) }, "unhandled error");
}
