/**
 * Process-wide services, created once at start-up: configuration, database, auth.
 * Route modules reach them through getRuntime(); tests build their own with createRuntime().
 */
import { createAuth, type Auth } from "./auth/auth.server";
import { getConfig, type Config } from "./config.server";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db/db.server";
import { logger } from "./logger.server";

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
}

export async function createRuntime(config: Config): Promise<Runtime> {
  const database = openDatabase(config.database);
  const result = await migrateToLatest(database.db);
  for (const r of result.results ?? []) {
    if (r.status === "Success") logger.info({ migration: r.migrationName }, "migration applied");
  }
  const auth = createAuth(config, database);
  return { config, database, auth };
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
