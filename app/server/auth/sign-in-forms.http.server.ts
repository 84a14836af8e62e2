/**
 * "Sign in with …" / "Register with …" (decision 059: one intent of the login and the
 * register form): off to the provider, or its refusal on the form with nothing typed back.
 */
import { redirect } from "react-router";
import { socialStartSchema } from "~/lib/domain/social";
import type { RouteDeps } from "../deps.server";
import { intent } from "../http/form-action.server";
import { startSocialSignIn } from "./accounts.service.server";

export function socialIntent<V>(deps: RouteDeps, from: "login" | "register", requestHeaders: Headers, values: V) {
  return intent({
    schema: socialStartSchema,
    values: () => values,
    async handle({ provider }) {
      const res = await startSocialSignIn(deps, { provider, from, requestHeaders });
      return redirect(res.redirectTo, { headers: res.headers });
    },
  });
}
