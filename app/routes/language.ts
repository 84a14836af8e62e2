import { data, redirect } from "react-router";
import { isLang } from "~/i18n/config";
import { safeRedirectTarget } from "~/lib/domain/redirect-target";
import { saveUserLanguage } from "~/server/auth/accounts.service.server";
import { getSessionUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/language";

/**
 * GET /language/:lang?redirectTo=/path — the footer's language links. A plain link so it
 * works without JavaScript; it sets a preference cookie (and the signed-in user's profile language), so GET is safe.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  if (!isLang(params.lang)) throw data(null, { status: 404 });
  const { cookies } = await getDeps();
  // A signed-in user's choice is kept on the profile (mails use it). Only for requests
  // from our own pages, so a cross-site image cannot change it.
  const site = request.headers.get("sec-fetch-site");
  if (site === null || site === "same-origin" || site === "none") {
    const user = await getSessionUser(request);
    if (user) await saveUserLanguage(await getDeps(), user.ref, params.lang);
  }
  const url = new URL(request.url);
  const setCookie = cookies.language(params.lang);
  return redirect(safeRedirectTarget(url.searchParams.get("redirectTo")), {
    headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" },
  });
}
