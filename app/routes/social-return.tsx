import { useTranslation } from "~/i18n/react";
import { Link, redirect } from "react-router";
import { pageMeta } from "~/lib/domain/meta";
import { parseSocialQuery } from "~/lib/domain/social";
import { socialReturnNotice } from "~/server/auth/accounts.service.server";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/social-return";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["auth"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth.social");
}

/**
 * Where an existing user lands after a social sign-in (new users go straight to
 * /dashboard): tells them 'Accounts successfully linked!' or, when they came from the
 * registration page, 'You have already registered'. Otherwise on to the dashboard.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const { provider, from } = parseSocialQuery(new URL(request.url).searchParams);
  if (!provider) throw redirect("/dashboard");
  const notice = await socialReturnNotice(await getDeps(), { requestHeaders: request.headers, provider, from });
  if (!notice) throw redirect("/dashboard");
  return { notice };
}

export default function SocialReturn({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="py-5" aria-labelledby="social-title">
      <h1 id="social-title">{t("auth.social.title")}</h1>
      <div className={`alert ${loaderData.notice === "linked" ? "alert-success" : "alert-info"}`} role="alert">
        {t(loaderData.notice === "linked" ? "auth.social.linked" : "auth.social.alreadyRegistered")}
      </div>
      <Link to="/dashboard" className="btn btn-primary">
        {t("auth.social.continue")}
      </Link>
    </section>
  );
}
