import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { useTranslation } from "~/i18n/react";
import { LANG_COOKIE } from "~/i18n/config";
import { CONSENT_COOKIE } from "~/lib/domain/consent";
import { pageMeta } from "~/lib/domain/meta";
import { PACKAGE_COOKIE, PACKAGE_COOKIE_DAYS } from "~/lib/domain/package-choice";
import { RETURN_TO_COOKIE } from "~/lib/domain/return-to";
import type { Route } from "./+types/cookies";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["cookies"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "cookies");
}

/** better-auth's cookie prefix (app/server/auth/auth.server.ts `advanced.cookiePrefix`). */
const AUTH_PREFIX = "hittad";

type Lifetime = { days: number } | { minutes: number } | "browserSession" | "session";

/**
 * Every cookie the product sets (ours only; others' are described in text). Keep in step
 * with the code: tests/e2e/public-pages.spec.ts checks that the cookies a signed-in,
 * consenting visitor with a language choice holds are all listed here.
 */
export const OUR_COOKIES: ReadonlyArray<{ name: string; purpose: string; lifetime: Lifetime }> = [
  { name: CONSENT_COOKIE, purpose: "consent", lifetime: { days: 365 } },
  { name: LANG_COOKIE, purpose: "lang", lifetime: { days: 365 } },
  { name: `${AUTH_PREFIX}.session_token`, purpose: "session", lifetime: "session" },
  { name: `${AUTH_PREFIX}.dont_remember`, purpose: "dontRemember", lifetime: "browserSession" },
  // better-auth's OAuth state cookie (database strategy: 5 minutes), social sign-in only.
  { name: `${AUTH_PREFIX}.state`, purpose: "state", lifetime: { minutes: 5 } },
  // app/server/http/return-to.server.ts: the page to return to after signing in.
  { name: RETURN_TO_COOKIE, purpose: "returnTo", lifetime: { minutes: 10 } },
  // app/server/order-draft/package-choice.server.ts: the package chosen on the home page.
  { name: PACKAGE_COOKIE, purpose: "package", lifetime: { days: PACKAGE_COOKIE_DAYS } },
];

/** `/cookies`: the cookie policy. */
export default function Cookies() {
  const { t } = useTranslation();
  const lifetime = (l: Lifetime) =>
    typeof l === "string"
      ? t(`cookies.lifetime.${l}`)
      : "days" in l
        ? t("cookies.lifetime.days", { count: l.days })
        : t("cookies.lifetime.minutes", { count: l.minutes });
  return (
    <article className="legal py-5" aria-labelledby="cookies-title">
      <h1 id="cookies-title">{t("cookies.title")}</h1>
      <p className="lead">{t("cookies.intro")}</p>

      <section aria-labelledby="cookies-ours">
        <h2 id="cookies-ours" className="h4 mt-4">
          {t("cookies.ours.title")}
        </h2>
        {/* A region keyboard users can focus and scroll when the table is wider than the
            screen (axe scrollable-region-focusable, decision 018). */}
        <div className="table-responsive" role="region" tabIndex={0} aria-labelledby="cookies-ours">
          <table className="table align-top cookie-table">
            <caption>{t("cookies.ours.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("cookies.ours.name")}</th>
                <th scope="col">{t("cookies.ours.purpose")}</th>
                <th scope="col">{t("cookies.ours.lifetime")}</th>
              </tr>
            </thead>
            <tbody>
              {OUR_COOKIES.map((c) => (
                <tr key={c.name}>
                  <th scope="row">
                    <code>{c.name}</code>
                  </th>
                  <td>{t(`cookies.purpose.${c.purpose}`)}</td>
                  <td>{lifetime(c.lifetime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="small">{t("cookies.ours.secure")}</p>
      </section>

      <section aria-labelledby="cookies-theirs">
        <h2 id="cookies-theirs" className="h4 mt-4">
          {t("cookies.theirs.title")}
        </h2>
        <p>{t("cookies.theirs.stripe")}</p>
        <p>{t("cookies.theirs.social")}</p>
        <p>{t("cookies.theirs.captcha")}</p>
      </section>

      <section aria-labelledby="cookies-manage">
        <h2 id="cookies-manage" className="h4 mt-4">
          {t("cookies.manage.title")}
        </h2>
        <p>{t("cookies.manage.text")}</p>
      </section>
    </article>
  );
}
