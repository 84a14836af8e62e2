/** Contact form limits and types without zod, so the page's browser bundle stays small. */
export const NAME_MAX = 200;
export const EMAIL_MAX = 254;
export const MESSAGE_MAX = 5000;
/** Longest staff reply in the support inbox. */
export const REPLY_MAX = 10_000;

/** Which captcha the page shows; the server decides (CAPTCHA). */
export type CaptchaKind = "altcha" | "recaptcha";
