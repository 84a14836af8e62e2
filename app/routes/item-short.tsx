/**
 * The sticker's short URL /{id}: the same page as /product/{id}. Placed just before the
 * `*` route; static routes always outrank it, and its loader answers 404 ('Page not
 * found') for any path that is not an id, so it never hides another page.
 */
export { action, default, handle, headers, loader, meta } from "./item";
