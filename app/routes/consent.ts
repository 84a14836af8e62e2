import * as cookie from "cookie";
import { redirect } from "react-router";
import { CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS } from "~/lib/consent";
import { safeRedirectTarget } from "~/lib/redirect-target";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/consent";

/** POST /consent: records acceptance in the ConsentApproved cookie and goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const { config } = await getDeps();
  const setCookie = cookie.serialize(CONSENT_COOKIE, "true", {
    path: "/",
    maxAge: CONSENT_MAX_AGE_SECONDS,
    sameSite: "lax",
    secure: config.secureCookies,
  });
  return redirect(safeRedirectTarget(form.get("redirectTo")), { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return redirect("/");
}
