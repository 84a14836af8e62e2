/**
 * The answer headers of pages whose address is a secret: a token in the path (the finder's
 * /m/{token}, a trusted contact's /t/c|r|s/{token}, the billing-email link). Never stored
 * by a cache. The address goes to no other site as a Referer, but to our own: with
 * `no-referrer` browsers post the page's own forms (reply, confirm, stop, the cookie
 * banner) with `Origin: null`, which the same-origin check has to refuse from browsers that
 * do not send Sec-Fetch-Site (decision 050; same-origin.server.ts).
 */
export const PRIVATE_LINK_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" } as const;

/**
 * The `headers` of every private-link route, and of any page whose action adds headers: the
 * loader's (PRIVATE_LINK_HEADERS), with the action's on top (a refusal's Retry-After).
 */
export function withActionHeaders({
  loaderHeaders,
  actionHeaders,
}: {
  loaderHeaders: Headers;
  actionHeaders: Headers;
}) {
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}
