import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/react";
import { Form, redirect, useSubmit } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { signOut } from "~/server/auth/accounts.service.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/logout";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["auth"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.logout");
}

/**
 * GET /logout changes nothing. Reached from our own pages (Sec-Fetch-Site: same-origin, or
 * typed into the address bar: none) it submits its POST at once and shows 'Logging
 * out...'; reached from another site it only shows the button, so no foreign page can
 * sign anyone out by sending them here. The POST (same-origin, checked by server/app.ts)
 * ends the session in the database and expires the cookies.
 */
export function loader({ request }: Route.LoaderArgs) {
  const site = request.headers.get("sec-fetch-site");
  return { autoSubmit: site === "same-origin" || site === "none" };
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function action({ request }: Route.ActionArgs) {
  const headers = await signOut(await getDeps(), request.headers);
  headers.set("Cache-Control", "no-store");
  throw redirect("/", { headers });
}

/**
 * How long 'Logging out...' stays before the POST goes (decision 018): long enough to be read
 * and announced, short enough not to feel slow.
 */
const LOGOUT_VISIBLE_MS = 900;

export default function Logout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  const auto = loaderData.autoSubmit;
  useEffect(() => {
    if (!auto || sent.current || !form.current) return;
    const target = form.current;
    const timer = window.setTimeout(() => {
      sent.current = true;
      void submit(target, { replace: true });
    }, LOGOUT_VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [submit, auto]);
  return (
    <section className="py-5 text-center" aria-labelledby="logout-title" aria-busy={auto ? true : undefined}>
      {/* A status region: screen readers announce 'Logging out...' (decision 018). */}
      <div role="status" aria-live="polite">
        <h1 id="logout-title">{t("auth.logout.title")}</h1>
      </div>
      {auto ? <div className="spinner-border my-3" aria-hidden="true" /> : <p>{t("auth.logout.confirm")}</p>}
      {/* Without JavaScript, or when sent here by another site, the visitor confirms. */}
      <Form method="post" ref={form}>
        <button type="submit" className={auto ? "btn btn-outline-secondary btn-sm" : "btn btn-primary"}>
          {t("auth.logout.submit")}
        </button>
      </Form>
    </section>
  );
}
