/**
 * The process's dependencies for a request (decision 011). The types live in
 * service-deps.server.ts, which imports no feature; this module reaches the runtime.
 */
import { depsOfRuntime, getRuntime } from "./runtime.server";
import type { CookieWriters } from "./http/cookies.server";
import type { PublicSettings } from "./public-settings.server";
import type { Deps } from "./service-deps.server";

/**
 * What a route holds: the services' Deps, plus the two things only the HTTP layer uses,
 * made once at start-up (decision 039): the Set-Cookie writers and the configuration's
 * public side. Services take `Pick<Deps, …>` and never see these.
 */
export interface RouteDeps extends Deps {
  cookies: CookieWriters;
  site: PublicSettings;
}

/** The process's dependencies, for a route to hand to services. */
export async function getDeps(): Promise<RouteDeps> {
  const rt = await getRuntime();
  return { ...depsOfRuntime(rt), cookies: rt.cookies, site: rt.site };
}
