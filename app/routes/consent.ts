import { redirect } from "react-router";
import { safeRedirectTarget } from "~/lib/domain/redirect-target";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/consent";

/** POST /consent: records acceptance in the ConsentApproved cookie and goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const setCookie = (await getDeps()).cookies.consent();
  return redirect(safeRedirectTarget(form.get("redirectTo")), { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return redirect("/");
}
