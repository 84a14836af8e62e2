// `npm run db:migrate`: apply pending migrations to DATABASE_URL and exit.
// Needs only DATABASE_URL (default: the SQLite file `npm start` uses).
import fs from "node:fs";
import { ConfigError, parseDatabaseConfig } from "../app/server/config.server";
import { migrateToLatest, openDatabase } from "../app/server/db/db.server";

if (fs.existsSync(".env")) process.loadEnvFile(".env"); // like `npm start`; the environment wins

let target;
try {
  target = parseDatabaseConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
const handle = openDatabase(target);
try {
  const result = await migrateToLatest(handle.db);
  const applied = (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await handle.close();
}
