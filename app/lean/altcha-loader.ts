/**
 * Loads the ALTCHA widget once, for the full app's Captcha and for the lean pages' captcha
 * script (decision 042). Its "external" build: the styles come as a stylesheet file
 * (style-src 'self') and the proof of work runs in a worker served from /assets
 * (worker-src 'self'), so the strict CSP holds. ~35 KB gzip, loaded only where a captcha is
 * shown.
 */
import altchaCss from "altcha/altcha.css?url";

let loaded: Promise<void> | undefined;

export function loadAltcha(): Promise<void> {
  loaded ??= (async () => {
    if (!document.querySelector(`link[href="${altchaCss}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = altchaCss;
      document.head.append(link);
    }
    await import("altcha/external");
    await import("altcha/i18n/sv");
    const { default: Pbkdf2Worker } = await import("altcha/workers/pbkdf2?worker");
    const registry = (globalThis as unknown as { $altcha: { algorithms: Map<string, () => Worker> } }).$altcha;
    registry.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
  })();
  return loaded;
}

/** The widget's settings, the same in both: no "protected by ALTCHA" footer. */
export const ALTCHA_CONFIGURATION = JSON.stringify({ hideFooter: true });
