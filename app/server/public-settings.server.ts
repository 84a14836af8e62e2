/**
 * The configuration's public side, the values pages show and send to the browser, built
 * once at start-up (runtime.server.ts) and handed to routes as `deps.site` (decision 039):
 * the captcha's kind and site key, the seller, the support address, the site's origin
 * (printed under QR codes). Routes never read
 * `deps.config` (ESLint).
 */
import type { CaptchaKind } from "~/lib/domain/contact-limits";
import type { SellerView } from "~/lib/domain/seller";
import { nationalSmsNumber } from "~/lib/domain/sms-number";
import type { Config } from "./config.server";
import { sellerOf } from "./seller/seller.server";

export interface CaptchaSettings {
  kind: CaptchaKind;
  /** reCAPTCHA's public site key; none for ALTCHA. */
  siteKey: string | undefined;
}

export interface PublicSettings {
  captcha: CaptchaSettings;
  seller: SellerView;
  supportEmail: string;
  /** BASE_URL's origin: the short {origin}/{id} of a sticker (decision 052). */
  origin: string;
  /** SMS_NUMBER as printed ("0766-86 10 00", decision 055), or null: no SMS finders. */
  smsNumber: string | null;
}

export function createPublicSettings(
  config: Pick<Config, "captcha" | "recaptcha" | "company" | "supportEmail" | "baseUrl" | "sms">,
): PublicSettings {
  return {
    captcha: {
      kind: config.captcha as CaptchaKind,
      siteKey: config.captcha === "recaptcha" ? config.recaptcha.siteKey : undefined,
    },
    seller: sellerOf(config),
    supportEmail: config.supportEmail,
    origin: config.baseUrl.origin,
    smsNumber: config.sms.number ? nationalSmsNumber(config.sms.number) : null,
  };
}
