/**
 * What the browser does before Preact hydrates the page React rendered on the server
 * (decision 044). Preact hydrates by position: each element of the tree takes the first
 * element of its kind left in the server's HTML, and keeps that element's attributes.
 */

/**
 * React's server moves and adds elements in `<head>`: it hoists every `<link>` and `<meta>`
 * ahead of the stylesheet, the module preloads of `<Scripts>` from the body, and adds a
 * preload for each image of the page. Preact would pair the tree's stylesheet with the first
 * `<link>` it finds and drop the real one. So the head keeps what both agree on — the
 * charset and viewport, the title, the stylesheets (the tree's first links) — and Preact
 * renders the rest anew. Modules already loaded are not fetched again.
 */
export function keepOnlyWhatPreactMatches(head: HTMLHeadElement) {
  for (const element of [...head.children]) {
    const kept =
      element.localName === "title" ||
      element.localName === "style" ||
      element.localName === "script" ||
      (element.localName === "meta" &&
        (element.hasAttribute("charset") || element.getAttribute("name") === "viewport")) ||
      (element.localName === "link" && element.getAttribute("rel") === "stylesheet");
    if (!kept) element.remove();
  }
}

/**
 * React Router's `HydratedRouter` suspends its first render until the server's data is
 * decoded; React waits for it at the root, Preact cannot (it would render the page anew,
 * beside the server's). Calling it once before hydrating starts the decoding, and the page
 * hydrates when it is done. It throws that promise before it reads any hook.
 */
export async function untilRouterDataDecoded(hydratedRouter: unknown) {
  try {
    (hydratedRouter as (props: object) => unknown)({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown;
    else throw thrown;
  }
}
