// `npm run restore -- <backup folder> [--force]`: restores a backup into DATABASE_URL and the
// photo storage (S3_* or the database), checking it whole first (decision 048). Stop every
// app instance first; a target with data is refused unless --force.
import fs from "node:fs";
import { ConfigError, parseBackupToolConfig } from "../app/server/config.server";
import { BackupRefused, restoreBackup } from "../app/server/backup/restore.service.server";

if (fs.existsSync(".env")) process.loadEnvFile(".env"); // like `npm start`; the environment wins

const args = process.argv.slice(2);
const force = args.includes("--force");
const dirs = args.filter((a) => a !== "--force");
if (dirs.length !== 1) {
  console.error("Usage: npm run restore -- <backup folder> [--force]");
  process.exit(2);
}
let config;
try {
  config = parseBackupToolConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
try {
  const r = await restoreBackup(config, dirs[0]!, { force, passphrase: config.backups.passphrase });
  const where = config.database.kind === "sqlite" ? config.database.file : "PostgreSQL (DATABASE_URL)";
  console.log(
    `Restored ${dirs[0]} into ${where}: ${r.tables} tables, ${r.rows} rows, ${r.photos} photo objects put back.` +
      (r.migratedForward.length ? `\n  Migrated forward: ${r.migratedForward.join(", ")}` : ""),
  );
  if (r.authSecretFile && config.database.kind === "postgres") {
    console.log(
      `  The backup held a SQLite server's generated auth secret, now in ${r.authSecretFile}: set AUTH_SECRET to ` +
        "its contents on every instance to keep everyone signed in.",
    );
  }
} catch (err) {
  if (!(err instanceof BackupRefused)) throw err;
  console.error(`Restore refused: ${err.message}`);
  process.exitCode = 1;
}
