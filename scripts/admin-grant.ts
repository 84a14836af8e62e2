// `npm run admin:grant -- <email>`: give a person the admin role (support inbox, sticker
// shipping). `npm run admin:grant -- --revoke <email>` takes it back. The grant is made
// by email, so it can be made before the person signs up; it counts once that account has
// verified the email, and is then bound to the account (isAdminUser). ADMIN_EMAILS is the
// other way.
import { z } from "zod";
import { grantAdmin, revokeAdmin } from "../app/server/admin/admin.repository.server";
import { getConfig } from "../app/server/config.server";
import { migrateToLatest, openDatabase } from "../app/server/db/db.server";

const args = process.argv.slice(2);
const revoke = args.includes("--revoke");
const emails = args.filter((a) => !a.startsWith("--"));
const email = z.email().safeParse(emails[0]?.trim());
if (emails.length !== 1 || !email.success) {
  console.error("Usage: npm run admin:grant -- [--revoke] <email>");
  process.exit(2);
}

const config = getConfig();
const handle = openDatabase(config.database);
try {
  await migrateToLatest(handle.db);
  const address = email.data.toLowerCase();
  if (revoke) {
    const done = await revokeAdmin(handle.db, address);
    console.log(done ? `Admin role revoked from ${address}.` : `${address} had no admin grant.`);
    if (config.adminEmails.includes(address)) console.log(`Note: ${address} is still listed in ADMIN_EMAILS.`);
  } else {
    const done = await grantAdmin(handle.db, address);
    console.log(done ? `Admin role granted to ${address}.` : `${address} already had the admin role.`);
    console.log("It counts once that account has verified the email, and is then bound to it.");
  }
} finally {
  await handle.close();
}
