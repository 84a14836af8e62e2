/**
 * The Deps a service takes (decision 011), built from a test's runtime, for tests that
 * seed data through services (createItem, keepOrderAddress, …) against a server's database.
 */
import { systemClock, type Deps } from "../../app/server/service-deps.server";
import type { Runtime } from "../../app/server/runtime.server";

export function depsOf(rt: Pick<Runtime, "database" | "config" | "auth">): Deps {
  return { db: rt.database.db, config: rt.config, auth: rt.auth, clock: systemClock, writer: rt.database.writer };
}
