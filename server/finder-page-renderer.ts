/**
 * How finder-page templates are rendered (decision 045, point 6;
 * app/server/finder-page.http.server.ts): by React Router's own request handler over the
 * production build, as any page, with the template's view given in the load context, so
 * the template is exactly the page React Router renders; and ContactText, the one value
 * with markup of its own, by React alone.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { ContactText } from "../app/components/ContactText";
import { requestContext } from "../app/server/context";
import { setFinderPageRenderer } from "../app/server/finder-page.http.server";
import { finderTemplateView } from "../app/server/items/finder-preset.server";

export function registerFinderPageRenderer(build: () => Promise<ServerBuild>) {
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  setFinderPageRenderer({
    async page(path, lang, consent, view, nonce) {
      // The mode the app's own handler runs in (@react-router/express takes NODE_ENV).
      handler ??= build().then((b) => createRequestHandler(b, process.env.NODE_ENV));
      const context = new RouterContextProvider();
      context.set(requestContext, { requestId: "finder-template", nonce, lang, consent, ip: "127.0.0.1" });
      context.set(finderTemplateView, view);
      const response = await (await handler)(new Request(`http://localhost${path}`), context);
      if (response.status !== 200) throw new Error(`the template's page answered ${response.status}`);
      return response.text();
    },
    contact(text) {
      // Its <p> keeps React's text handling as on the page; only the inside is the value.
      const html = renderToString(createElement("p", null, createElement(ContactText, { text })));
      return html.slice("<p>".length, -"</p>".length);
    },
  });
}
