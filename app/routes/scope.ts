import { data, redirect } from "react-router";
import { scopeChoiceSchema } from "~/lib/domain/organisations";
import { safeRedirectTarget } from "~/lib/domain/redirect-target";
import { requireUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { readForm } from "~/server/http/form.server";
import { chooseScope, OrganisationError } from "~/server/organisations/organisations.service.server";
import type { Route } from "./+types/scope";

/**
 * POST /scope (decision 022): the user menu's switch between "personal" and an organisation.
 * The membership is checked before the cookie is set, and again on every request that
 * reads it (scope.server.ts); the cookie itself is never trusted.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = Object.fromEntries(await readForm(request));
  const p = scopeChoiceSchema.safeParse(form);
  if (!p.success) throw data(null, { status: 400 });
  const deps = await getDeps();
  // Any organisation refusal is the bare 404 page: the switcher tells no one which organisations exist.
  try {
    const value = await chooseScope(deps, user.ref, p.data.scope);
    const setCookie = deps.cookies.scope(value);
    return redirect(safeRedirectTarget(p.data.redirectTo, "/dashboard"), { headers: { "Set-Cookie": setCookie } });
  } catch (err) {
    if (err instanceof OrganisationError) throw data(null, { status: 404 });
    throw err;
  }
}

export function loader() {
  return redirect("/");
}
