/**
 * Response headers every page gets: the Content-Security-Policy (with a per-response
 * nonce), framing, referrer and HSTS, and `Cache-Control: private, no-store` for
 * requests that carry a session (decision 012, HTTP part).
 */
import type express from "express";
import helmet from "helmet";
import { randomBytes } from "node:crypto";
import { socialFormActionOrigins } from "./auth/auth.server";
import { getConfig } from "./config.server";
import { checkoutFormActionOrigins } from "./orders/payments.server";
import { inlineCssSource } from "./http/lean-page.server";

/** A fresh CSP nonce per response (res.locals.nonce), for React's inline scripts. */
export function cspNonce(_req: express.Request, res: express.Response, next: express.NextFunction) {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
}

export const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.nonce}'`, "'strict-dynamic'"],
      // The lean finder page's inline stylesheet (docs/decisions/020), by hash.
      styleSrc: ["'self'", inlineCssSource],
      styleSrcAttr: ["'unsafe-inline'"],
      // blob: the product form's preview of chosen photos (decision 035), never a remote source.
      imgSrc: ["'self'", "data:", "blob:", "https:"],
      fontSrc: ["'self'"],
      // Dev only (`npm run dev`): Vite's hot-reload websocket. Production builds drop it.
      connectSrc: import.meta.env.DEV ? ["'self'", "ws://localhost:*"] : ["'self'"],
      // The ALTCHA widget solves in a Web Worker from /assets ('strict-dynamic' would
      // otherwise leave workers without an allowed source).
      workerSrc: ["'self'"],
      // reCAPTCHA (CAPTCHA=recaptcha) renders its checkbox in Google's frame.
      frameSrc: [
        () =>
          getConfig().captcha === "recaptcha"
            ? "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/"
            : "'self'",
      ],
      // Social sign-in forms POST to us and are redirected to the provider; so is the
      // order form to Stripe's hosted checkout (PAYMENTS=stripe).
      formAction: [
        "'self'",
        () =>
          [...socialFormActionOrigins(getConfig()), ...checkoutFormActionOrigins(getConfig())].join(" ") || "'self'",
      ],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  // Ours below: only when BASE_URL is https.
  strictTransportSecurity: false,
});

/** One year, subdomains included: only sent when BASE_URL is https (config.secureCookies). */
const HSTS = "max-age=31536000; includeSubDomains";

/** HSTS on every response of an https deployment (a browser ignores it over http anyway). */
export function strictTransportSecurity(_req: express.Request, res: express.Response, next: express.NextFunction) {
  if (getConfig().secureCookies) res.setHeader("Strict-Transport-Security", HSTS);
  next();
}

/** better-auth's session cookie (prefix "hittad", `__Secure-` on https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?hittad\.session_token=/;

export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return !!cookieHeader && SESSION_COOKIE.test(cookieHeader);
}

const PHOTO_PATH = /^\/product\/[A-Za-z0-9]+\/photo\/[0-9a-f]{64}\.webp$/;

/**
 * A signed-in request's answer (edit pages, admin pages, dashboard, `.data`) is never
 * stored by a browser or a shared cache: `Cache-Control: private, no-store`, whatever the
 * route set, applied when the headers are written.
 */
export function noStoreWhenSignedIn(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (!hasSessionCookie(req.headers.cookie)) return next();
  // An item photo's bytes never change under their URL (the name is their hash) and are
  // answered `private` already: the owner's browser may keep them (decision 035).
  if (PHOTO_PATH.test(req.path)) return next();
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => express.Response;
  res.writeHead = ((...args: unknown[]) => {
    // Headers passed to writeHead itself (React Router's adapter sets them on res first).
    res.setHeader("Cache-Control", "private, no-store");
    for (const a of args) {
      if (a && typeof a === "object" && !Array.isArray(a)) {
        for (const k of Object.keys(a))
          if (k.toLowerCase() === "cache-control") delete (a as Record<string, unknown>)[k];
      }
    }
    return writeHead(...args);
  }) as typeof res.writeHead;
  next();
}
