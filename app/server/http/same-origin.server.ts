/**
 * CSRF: a state-changing request that the browser says comes from another site is refused.
 * Pure, so the rule is tested beside it; server/app.ts applies it before any route.
 */
export interface OriginFacts {
  method: string;
  path: string;
  /** The Origin header, if any. */
  origin: string | undefined;
  /** The Sec-Fetch-Site header, if any. */
  fetchSite: string | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Signed by Stripe, or proven by 46elks' secret (decision 055): not sent by a browser. */
const NOT_FROM_BROWSERS = new Set(["/api/stripe/webhook", "/webhooks/46elks/sms"]);

/** True when the request must be refused (403): it changes state and comes from another site. */
export function isCrossSiteWrite(req: OriginFacts, ownOrigin: string): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  if (NOT_FROM_BROWSERS.has(req.path)) return false;
  // 46elks' delivery reports (decision 033): proven by the secret in the path.
  if (req.path.startsWith("/api/sms/report/")) return false;
  // The REST API (decision 054): its key is a header a page cannot send ambiently, and it reads no cookie.
  if (req.path.startsWith("/api/v1/")) return false;
  // A page served with `Referrer-Policy: no-referrer` (a user's browser setting can force it
  // too) makes the browser post its forms with `Origin: null`; Sec-Fetch-Site, which no page
  // can set, still says the form was our own. Without it, or with any other value, null
  // stays refused: a sandboxed frame or a data: URL elsewhere also posts `Origin: null`.
  if (req.origin === "null") return req.fetchSite !== "same-origin";
  if (req.origin !== undefined) return req.origin !== ownOrigin;
  // Browsers that send no Origin still say where the request came from.
  return req.fetchSite === "cross-site";
}
