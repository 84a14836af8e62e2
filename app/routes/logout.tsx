import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, redirect, useSubmit } from "react-router";
import { pageMeta } from "~/lib/meta";
import { signOut } from "~/server/auth/accounts.service.server";
import type { Route } from "./+types/logout";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.logout");
}

/**
 * GET /logout only shows 'Logging out...' and changes nothing, so an image tag on
 * another site cannot sign anyone out. The page then POSTs (same-origin, checked by
 * server/app.ts), which ends the session in the database and expires the cookies.
 */
export async function action({ request }: Route.ActionArgs) {
  const headers = await signOut(request);
  headers.set("Cache-Control", "no-store");
  throw redirect("/", { headers });
}

export default function Logout() {
  const { t } = useTranslation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !form.current) return;
    sent.current = true;
    void submit(form.current, { replace: true });
  }, [submit]);
  return (
    <section className="py-5 text-center" aria-labelledby="logout-title" aria-busy="true">
      <h1 id="logout-title">{t("auth.logout.title")}</h1>
      <div className="spinner-border my-3" aria-hidden="true" />
      {/* Without JavaScript the visitor confirms with this button. */}
      <Form method="post" ref={form}>
        <button type="submit" className="btn btn-outline-secondary btn-sm">
          {t("auth.logout.submit")}
        </button>
      </Form>
    </section>
  );
}
