// `npm run drill:rolling` (decision 048; not in CI): a rolling deploy, rehearsed. The
// previous commit (or `-- --from <ref>`) is built in a git worktree beside this checkout;
// two instances of it serve one fresh PostgreSQL database behind a load balancer
// (scripts/lib/fleet.ts) while a load asks for the finder page (a scan each) and signs in.
// Then, one at a time as a real rollout goes: a new instance starts (the first one
// migrates the database under the old ones), joins the balancer, and an old one gets
// SIGTERM and drains. The drill fails if any finder page or sign-in failed, or if a scan
// that was answered is missing from the database.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run drill:rolling [-- --from main]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildIfNeeded, root } from "./lib/build.mjs";
import {
  createDatabase,
  PHONE_UA,
  paidItem,
  postForm,
  registerUser,
  startBalancer,
  startInstance,
  stopInstance,
  type Instance,
} from "./lib/fleet";

const fromArg = process.argv.indexOf("--from");
const from = fromArg > 0 ? process.argv[fromArg + 1]! : "HEAD~1";
const sh = (cmd: string, args: string[], cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return r.stdout.trim();
};
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${msg}`);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

const work = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-rolling-"));
const previous = path.join(work, "previous");
const oldCommit = sh("git", ["rev-parse", "--short", from]);
const newCommit = sh("git", ["rev-parse", "--short", "HEAD"]);
log(`previous ${from} = ${oldCommit}, current ${newCommit} (and any uncommitted changes); work in ${work}`);
sh("git", ["worktree", "add", "--detach", previous, from]);
const cleanup: Array<() => Promise<unknown> | unknown> = [
  () => sh("git", ["worktree", "remove", "--force", previous]),
  () => fs.rmSync(work, { recursive: true, force: true }),
];
let failed: boolean;
try {
  const sameLock =
    fs.readFileSync(path.join(previous, "package-lock.json"), "utf8") ===
    fs.readFileSync(path.join(root, "package-lock.json"), "utf8");
  if (sameLock) fs.symlinkSync(path.join(root, "node_modules"), path.join(previous, "node_modules"));
  else sh("npm", ["ci", "--no-audit", "--no-fund"], previous);
  log(`building ${oldCommit}${sameLock ? " (same dependencies: node_modules shared)" : ""}`);
  sh("npm", ["run", "-s", "build"], previous);
  buildIfNeeded();

  const database = await createDatabase(process.env.DATABASE_URL ?? "", "rolling");
  cleanup.unshift(() => database.drop());
  const env = {
    DATABASE_URL: database.url,
    AUTH_SECRET: "rolling-drill-secret-0123456789abcdef0123456789",
    ALLOW_TEST_PAYMENTS: "1",
    TRUST_PROXY: "1",
    MAIL_OUTBOX_DIR: path.join(work, "outbox"),
    SMS_OUTBOX_DIR: path.join(work, "sms"),
    LOG_LEVEL: "warn",
    // Two looks of the balancer (250 ms each) and then some: it has stopped sending by then.
    SHUTDOWN_DELAY_MS: "1500",
  };
  const balancer = await startBalancer();
  const instances: Instance[] = [];
  cleanup.unshift(async () => {
    await Promise.all(instances.map((i) => stopInstance(i)));
    await balancer.close();
  });
  const start = async (name: string, dir: string) => {
    const i = await startInstance(name, dir, { ...env, BASE_URL: balancer.url }, work);
    instances.push(i);
    balancer.add(i);
    log(`${name} ready on :${i.port}`);
    return i;
  };
  const old1 = await start(`old-1 (${oldCommit})`, previous);
  const old2 = await start(`old-2 (${oldCommit})`, previous);
  await wait(600);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanup.unshift(() => db.end());
  const user = await registerUser(balancer.url, "Rolling Owner");
  const item = await paidItem(balancer.url, db, user, "Rolling bike");
  const migrationsBefore = (await db.query("select count(*)::int as n from kysely_migration")).rows[0].n as number;

  const results = { finder: 0, signIn: 0, failures: [] as string[] };
  let loading = true;
  const finderLoop = async () => {
    while (loading) {
      const res = await fetch(`${balancer.url}/product/${item}`, { headers: { "user-agent": PHONE_UA } }).catch(
        (e: Error) => ({ status: 0, text: async () => e.message }),
      );
      const body = await res.text();
      if (res.status === 200 && body.includes("Rolling bike")) results.finder++;
      else results.failures.push(`${new Date().toISOString()} finder page: ${res.status} ${body.slice(0, 80)}`);
    }
  };
  const signInLoop = async () => {
    while (loading) {
      const r = await postForm(balancer.url, "/login", { email: user.email, password: user.password }).catch(
        (e: Error) => ({ status: 0, location: e.message }),
      );
      if (r.status === 302 && r.location !== "/login") results.signIn++;
      else results.failures.push(`${new Date().toISOString()} sign-in: ${r.status} ${r.location}`);
      await wait(50);
    }
  };
  const load = Promise.all([finderLoop(), finderLoop(), signInLoop()]);
  log("load running through the balancer");
  await wait(3000);

  // The rollout: new-1 migrates while the old ones serve, then each old one is replaced.
  const new1 = await start(`new-1 (${newCommit})`, root);
  const migrationsAfter = (await db.query("select count(*)::int as n from kysely_migration")).rows[0].n as number;
  log(`new-1 applied ${migrationsAfter - migrationsBefore} migration(s) while ${oldCommit} served`);
  await wait(2000);
  log(`SIGTERM ${old1.name}`);
  const exit1 = await stopInstance(old1);
  log(`${old1.name} exited ${exit1}`);
  await start(`new-2 (${newCommit})`, root);
  await wait(2000);
  log(`SIGTERM ${old2.name}`);
  const exit2 = await stopInstance(old2);
  log(`${old2.name} exited ${exit2}`);
  await wait(3000);
  loading = false;
  await load;
  await wait(1500); // the scan log's last flush
  void new1;

  const scans = (await db.query('select count(*)::int as n from item_scans where "productId" = $1', [item])).rows[0]
    .n as number;
  console.log(
    `\nRolling deploy ${oldCommit} → ${newCommit}: ${results.finder} finder pages, ${results.signIn} sign-ins, ` +
      `${results.failures.length} failed; ${migrationsAfter - migrationsBefore} migration(s) applied under load; ` +
      `scans answered ${results.finder}, written ${scans}; old instances exited ${exit1} and ${exit2}` +
      // A release before SIGTERM drained (decision 048) waits for its keep-alive
      // connections and is ended after 10 s, with exit code 1.
      (exit1 !== 0 || exit2 !== 0 ? " (1: the previous release did not drain, ended after 10 s)" : "") +
      ".",
  );
  for (const f of results.failures.slice(0, 20)) console.log(`  ${f}`);
  failed = results.failures.length > 0 || scans !== results.finder;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  failed = true;
} finally {
  for (const c of cleanup) await Promise.resolve(c()).catch((e: unknown) => console.error(`cleanup: ${String(e)}`));
}
process.exit(failed ? 1 : 0);
