/**
 * Translation areas (app/locales/<lang>/<area>.json) the root renders on every page: the
 * header and its user menu, the footer, the consent dialog, the error screens and the
 * default <title>. The root Layout adds them to the areas a route declares in
 * `handle.i18n`; the browser loads only those before hydrating (docs/decisions/020).
 * app/i18n/route-areas.test.ts fails when the root or a page can render a key from an
 * area that is not loaded.
 */
export const ROOT_AREAS: readonly string[] = ["consent", "errors", "layout"];

/** The areas a page loads first: the root's and the route's, or undefined (all) if it declares none. */
export function pageAreas(declared: readonly string[] | undefined): string[] | undefined {
  return declared ? [...new Set([...ROOT_AREAS, ...declared])].sort() : undefined;
}
