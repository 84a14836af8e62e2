import * as cookie from "cookie";
import { data, redirect } from "react-router";
import { isLang, LANG_COOKIE } from "~/i18n/config";
import { safeRedirectTarget } from "~/lib/redirect-target";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/language";

/**
 * GET /language/:lang?redirectTo=/path — the footer's language links. A plain link so it
 * works without JavaScript; it only sets a preference cookie, so GET is safe.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  if (!isLang(params.lang)) throw data(null, { status: 404 });
  const { config } = await getRuntime();
  const url = new URL(request.url);
  const setCookie = cookie.serialize(LANG_COOKIE, params.lang, {
    path: "/",
    maxAge: 365 * 24 * 60 * 60,
    sameSite: "lax",
    secure: config.baseUrl.protocol === "https:",
  });
  return redirect(safeRedirectTarget(url.searchParams.get("redirectTo")), {
    headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" },
  });
}
