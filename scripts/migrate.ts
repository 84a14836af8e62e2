// `npm run db:migrate`: apply pending migrations to DATABASE_URL and exit.
import { getConfig } from "../app/server/config.server";
import { migrateToLatest, openDatabase } from "../app/server/db/db.server";

const config = getConfig();
const handle = openDatabase(config.database);
try {
  const result = await migrateToLatest(handle.db);
  const applied = (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await handle.close();
}
