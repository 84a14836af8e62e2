/**
 * The process's dependencies for a request (decision 011). The types live in
 * service-deps.server.ts, which imports no feature; this module reaches the runtime.
 */
import { getRuntime } from "./runtime.server";
import type { Deps } from "./service-deps.server";

/** The process's dependencies, for a route to hand to services. */
export async function getDeps(): Promise<Deps> {
  const { database, config, auth, clock, cookies, site } = await getRuntime();
  return { db: database.db, config, auth, clock, cookies, site, writer: database.writer };
}
