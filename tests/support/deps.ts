/**
 * The Deps a service takes (decision 011), built from a test's runtime, for tests that
 * seed data through services (createItem, keepOrderAddress, …) against a server's database.
 * The same Deps the server builds (runtime.server.ts' depsOfRuntime), on the system clock.
 */
import { systemClock, type Deps } from "../../app/server/service-deps.server";
import { depsOfRuntime, type Runtime } from "../../app/server/runtime.server";

export function depsOf(rt: Runtime): Deps {
  return depsOfRuntime({ ...rt, clock: systemClock });
}
