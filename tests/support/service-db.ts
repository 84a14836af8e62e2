/**
 * Service tests (decision 011): the real migrations on an in-memory SQLite, and the Deps a
 * service takes, with a clock the test controls. No server, no HTTP. The money paths' specs
 * also run on PostgreSQL in the database leg (`npm test -- --db-only`, which sets
 * SERVICE_TESTS_ON_POSTGRES=1 beside DATABASE_URL): each call then makes its own database.
 */
// Services write mails through getT: the server's translations, as at start-up.
import "../../app/i18n/resources.server";
import { parseConfig, type Config } from "../../app/server/config.server";
import type { ItemPageCache } from "../../app/server/items/item-page-cache.server";
import type { Deps } from "../../app/server/service-deps.server";
import { createRuntime, depsOfRuntime } from "../../app/server/runtime.server";
import { createTestDatabase, sqliteTemplateImage, TEST_AUTH_SECRET, usingPostgres } from "./database";

export interface ServiceTestDeps extends Deps {
  /** The runtime's own finder-page cache, as the server has it (a test may store pages in it). */
  pageCache: ItemPageCache;
  /** Moves the clock; `clock()` answers this value. */
  setNow(ms: number): void;
  close(): Promise<void>;
}

/**
 * `fakes`: in-process stand-ins for the outside systems a test is not about (decision 060's
 * Deps ports: the photo store, the captcha, the outbox's senders); the runtime's real ones otherwise.
 */
export async function createServiceDeps(
  env: Record<string, string> = {},
  start = Date.UTC(2026, 10, 23, 12),
  fakes: Partial<Pick<Deps, "photos" | "captcha" | "senders">> = {},
): Promise<ServiceTestDeps> {
  const database =
    process.env.SERVICE_TESTS_ON_POSTGRES === "1" && usingPostgres() ? await createTestDatabase("svc") : null;
  const config: Config = parseConfig({
    NODE_ENV: "test",
    DATABASE_URL: database?.url ?? "file::memory:",
    AUTH_SECRET: TEST_AUTH_SECRET,
    BASE_URL: "http://localhost:3000",
    LOG_LEVEL: "warn",
    RATE_LIMIT_DISABLED: "1",
    ...env,
  } as NodeJS.ProcessEnv);
  // An in-memory SQLite starts as a copy of the migrated template (the runtime's migrations then find nothing to do).
  if (config.database.kind === "sqlite" && config.database.file === ":memory:") {
    config.database = { ...config.database, image: await sqliteTemplateImage() };
  }
  let now = start;
  const rt = await createRuntime(config, () => now);
  return {
    ...depsOfRuntime(rt),
    ...fakes,
    pageCache: rt.pageCache,
    setNow: (ms) => {
      now = ms;
    },
    close: async () => {
      await rt.database.close();
      await database?.drop();
    },
  };
}
