/** The cookie that remembers the page to return to after signing in (browser-safe name only). */
export const RETURN_TO_COOKIE = "hittad.return_to";
