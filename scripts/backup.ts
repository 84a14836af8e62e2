// `npm run backup`: a consistent backup of the running instance's database and photos into
// BACKUP_DIR (default ./data/backups), encrypted with BACKUP_PASSPHRASE if set (decision 048).
import fs from "node:fs";
import { ConfigError, parseBackupToolConfig } from "../app/server/config.server";
import { makeBackup } from "../app/server/backup/backup.service.server";
import { openDatabase } from "../app/server/db/db.server";

if (fs.existsSync(".env")) process.loadEnvFile(".env"); // like `npm start`; the environment wins

let config;
try {
  config = parseBackupToolConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
const { database } = config;
if (database.kind === "sqlite" && !fs.existsSync(database.file)) {
  console.error(`No database to back up at ${database.file} (DATABASE_URL)`);
  process.exit(1);
}
// The attempt is logged in the database it backs up (the backups table: /admin/backups, /metrics).
const log = openDatabase(database);
try {
  const r = await makeBackup(config, { clock: Date.now, trigger: "manual", log: log.db });
  const rows = Object.values(r.manifest.tables).reduce((n, t) => n + t.rows, 0);
  const photos = Object.keys(r.manifest.files).filter((f) => f.startsWith("photos/")).length;
  console.log(
    `Backup written: ${r.dir}\n  ${Object.keys(r.manifest.tables).length} tables, ${rows} rows, ` +
      `${photos} photo objects from S3, ${(r.sizeBytes / 1024 / 1024).toFixed(1)} MB` +
      (r.manifest.encrypted ? ", encrypted" : ", not encrypted (set BACKUP_PASSPHRASE to encrypt)"),
  );
  if (r.manifest.missingPhotos.length) {
    console.warn(`  ${r.manifest.missingPhotos.length} photo objects named in the database were missing from S3`);
  }
} catch (err) {
  console.error(`Backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await log.close();
}
