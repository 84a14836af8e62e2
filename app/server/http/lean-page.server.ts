/**
 * What a lean page (no React Router scripts; docs/decisions/020) carries inline: the
 * stylesheet, so its first paint needs no second request, and the finder page's script.
 * The stylesheet's hash is in every response's `style-src`, so the inline copy is allowed
 * on rendered and cached pages alike without a nonce.
 *
 * The inline stylesheet is the site's, less the rules no lean page can use: a rule stays
 * when every class of one of its selectors is a word of the sources that render the
 * lean pages, the finder page, the home page and the pages anonymous visitors read, the
 * sign-in and contact forms included (LEAN_SOURCES). A word too many only keeps
 * a rule; a class built at run time must be listed in RUNTIME_CLASSES
 * (app/styles/runtime-classes.ts). The stylesheet it starts from (lean.scss: the site's
 * with Bootstrap's SVG icons) was purged at build time already (scripts/lib/vite-purge-css.ts).
 */
import { createHash } from "node:crypto";
import type { LeanPageAssets } from "~/lean/lean-page";
import script from "~/lean/finder-page-script.js?raw";
import captchaScript from "virtual:hittad/captcha-script";
import css from "~/styles/lean.scss?inline";
import { purgeCss } from "~/lean/purge-css";
import { RUNTIME_CLASSES } from "~/styles/runtime-classes";

const LEAN_SOURCES = import.meta.glob(
  [
    "../../root.tsx",
    "../../routes/{item,home,terms,cookies,companies,privacy,find,not-found,support,login,register,reset-password,contact}.tsx",
    "../../components/{SiteHeader,SiteFooter,ConsentOverlay,LanguageLinks,FinderMessageForm,ContactText,CantMeetOwner,FindCodeForm,SellerDetails,SocialButtons,Captcha}.tsx",
    "../../components/form/*.tsx",
    "../../lean/*.js",
  ],
  { query: "?raw", import: "default", eager: true },
) as Record<string, string>;

const words = new Set([...Object.values(LEAN_SOURCES).flatMap((s) => s.match(/[\w-]+/g) ?? []), ...RUNTIME_CLASSES]);
const leanCss = purgeCss(css, words);

// Its comments are for readers of the source, not for a finder's phone.
export const leanPageAssets: LeanPageAssets = {
  css: leanCss,
  script: script.replace(/^\s*\/\/.*\n/gm, ""),
  captchaScript,
};

/** The CSP source that allows the inline stylesheet. */
export const inlineCssSource = `'sha256-${createHash("sha256").update(leanCss, "utf8").digest("base64")}'`;
