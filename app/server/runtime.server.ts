/**
 * Process-wide services, created once at start-up: configuration, database, auth, clock.
 * Start-up code imports no feature's logic except the hooks it wires here (decision 031).
 * Route modules reach them through getRuntime(); tests build their own with createRuntime().
 */
import { eraseUserData } from "./account/privacy.service.server";
import { createAuth, type Auth } from "./auth/auth.server";
import { getConfig, type Config } from "./config.server";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db/db.server";
import { createCookieWriters, type CookieWriters } from "./http/cookies.server";
import { logger } from "./logger.server";
import { createPublicSettings, type PublicSettings } from "./public-settings.server";
import { systemClock, type Clock } from "./service-deps.server";

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  /** The one clock of the process; tests pass their own (decision 004). */
  clock: Clock;
  /** Set-Cookie writers, `Secure` as the configuration says (decision 039). */
  cookies: CookieWriters;
  /** The configuration's public side (captcha, seller), built once. */
  site: PublicSettings;
}

export async function createRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  const database = openDatabase(config.database);
  const result = await migrateToLatest(database.db);
  for (const r of result.results ?? []) {
    if (r.status === "Success") logger.info({ migration: r.migrationName }, "migration applied");
  }
  const auth = createAuth(config, database, {
    beforeDeleteUser: (user) => eraseUserData({ db: database.db, config, clock }, user),
  });
  return { config, database, auth, clock, cookies: createCookieWriters(config), site: createPublicSettings(config) };
}

let current: Promise<Runtime> | undefined;

/** The process's runtime, created on first use (migrations run then). */
export function getRuntime(): Promise<Runtime> {
  // A failed start (database unreachable) is not cached: the next request tries again.
  current ??= createRuntime(getConfig()).catch((err: unknown) => {
    current = undefined;
    throw err;
  });
  return current;
}

export async function closeRuntime(): Promise<void> {
  if (!current) return;
  const rt = await current.catch(() => undefined);
  current = undefined;
  await rt?.database.close();
}
