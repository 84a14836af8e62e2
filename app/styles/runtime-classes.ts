/**
 * Classes that no source file spells out whole: they are composed at run time, so the
 * purge of the site stylesheet (scripts/lib/vite-purge-css.ts) and of the lean finder
 * page's inline copy (app/server/http/lean-page.server.ts) cannot find them as words and
 * keep them from this list (docs/decisions/020).
 *
 * Audit (2026-11-24): `grep -rnE 'className=\{|classList' app` and every template literal
 * that builds a class. Classes chosen by a ternary between two literals ("show",
 * "collapsed", "is-invalid", "btn-success"…) are words of their source already; the page
 * script (app/lean/finder-page-script.js) toggles only "show" and "collapsed", both
 * literal there too. Add a class here when you build one from an expression.
 */
export const RUNTIME_CLASSES: readonly string[] = [
  // FormAlert: `alert-${variant}`, variant "danger" | "success" | "warning" | "info".
  "alert-danger",
  "alert-success",
  "alert-warning",
  "alert-info",
  // The relay threads (message.tsx, finder-thread.tsx): `relay-message-${m.author}`.
  "relay-message-owner",
  "relay-message-finder",
  // ContactText: `contact-${kind}`; SocialButtons: `social-${provider}`. No rules today;
  // listed so that a rule added for them is not purged away.
  "contact-phone",
  "contact-email",
  "social-google",
  "social-facebook",
  "social-twitter",
];
