// Proves that each security fix has a test that fails without it (a mutation check, run by
// hand: `npx tsx scripts/prove-security-tests.ts [point…]`, with DATABASE_URL for
// PostgreSQL). For every mutation below it undoes one fix in the source, rebuilds when the
// test runs against the built server, runs the test that guards the rule and expects it to
// FAIL; then it restores the source. A mutation whose test still passes "survived": the
// rule is unguarded, and the script exits 1. Each find string must occur exactly once, so a
// refactor that moves a rule makes the script say so instead of proving nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

interface Edit {
  file: string;
  find: string;
  replace: string;
}
interface Mutation {
  point: string;
  what: string;
  edits: Edit[];
  /**
   * "unit": vitest's default config (source imported directly); "integration": the built
   * server; "service": the integration config, but the test calls services (source
   * imported directly, no build).
   */
  suite: "unit" | "integration" | "service";
  test: string;
  name: string;
}

const INVOICE = "app/server/orders/invoice.service.server.ts";
const GUARD = "app/server/orders/invoice-guard.repository.server.ts";
const PRIVACY = "app/server/account/privacy.repository.server.ts";
const ACCOUNTS = "app/server/auth/accounts.service.server.ts";
const RELAY = "app/server/relay/relay.service.server.ts";
const ALERTS = "app/server/alerts/alerts.service.server.ts";
const CONTACTS = "app/server/trusted-contacts/reply.service.server.ts";
const CONCURRENCY = "tests/integration/rate-limit-concurrency.test.ts";

const mutations: Mutation[] = [
  {
    point: "1",
    what: "an unverified admin may pay by invoice",
    edits: [
      {
        file: INVOICE,
        find: `if (!(await findUserForReceipt(deps.db, input.userId))?.emailVerified) throw new OrderError("invoiceVerifyEmail");`,
        replace: "",
      },
    ],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "an unverified admin cannot pay by invoice",
  },
  {
    point: "1",
    what: "an invoice goes out before the billing email is confirmed",
    edits: [
      {
        file: INVOICE,
        find: `if (!billingEmailConfirmed(org)) throw new OrderError("invoiceBillingUnconfirmed");`,
        replace: "",
      },
    ],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "the billing email is confirmed by its mailed link",
  },
  {
    point: "1",
    what: "a lapsed invoice does not stop the next one (the reported hole)",
    edits: [{ file: GUARD, find: `eb("orders.lapsedAt", "is not", null),`, replace: "" }],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "an overdue or lapsed invoice stops the next one",
  },
  {
    point: "1",
    what: "an overdue invoice does not stop the next one",
    edits: [
      {
        file: GUARD,
        find: `if (await hasOverdueInvoice(trx, order.organisationId, guard)) return { reason: "overdue" };`,
        replace: "",
      },
    ],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "an overdue or lapsed invoice stops the next one",
  },
  {
    point: "1",
    what: "no credit limit before the first invoice is paid",
    edits: [
      {
        file: GUARD,
        find: `if (used !== null && used + order.count > guard.creditItems) {`,
        replace: `if (used === -1) {`,
      },
    ],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "items on credit until the first invoice is paid",
  },
  {
    point: "1",
    what: "an invoice's stickers are posted before it is paid",
    edits: [
      {
        file: INVOICE,
        find: `    await forgetPayNowItem(trx, order.userId, ids, now);\n`,
        replace: `    await forgetPayNowItem(trx, order.userId, ids, now);\n    await releaseInvoiceShipment(trx, order, now);\n`,
      },
    ],
    suite: "integration",
    test: "tests/integration/accountable-invoicing.test.ts",
    name: "an invoice's stickers are posted once it is paid",
  },
  {
    point: "2",
    what: "contact messages and the mail log by address go to an unverified account",
    edits: [
      {
        file: PRIVACY,
        find: `      u.emailVerified\n        ? eb.or([eb("userId"`,
        replace: `      true\n        ? eb.or([eb("userId"`,
      },
      { file: PRIVACY, find: `  if (!u.emailVerified) return [];\n`, replace: "" },
      { file: PRIVACY, find: `  if (!u.emailVerified) return;\n`, replace: "" },
    ],
    suite: "integration",
    test: "tests/integration/account.test.ts",
    name: "records kept by address",
  },
  {
    point: "3",
    what: "sign-in reads the counter, checks the password, then counts the failure",
    edits: [
      {
        file: ACCOUNTS,
        find: `const lock = await limiter.hit(ACCOUNT_LIMITS.signInAccountIp, accountIp, deps.clock());`,
        replace: `const lock = await limiter.peek(ACCOUNT_LIMITS.signInAccountIp, accountIp, deps.clock());`,
      },
      {
        file: ACCOUNTS,
        find: `if (err instanceof APIError && err.statusCode < 500) throw new AccountError("invalidCredentials");`,
        replace: `if (err instanceof APIError && err.statusCode < 500) {\n      await limiter.hit(ACCOUNT_LIMITS.signInAccountIp, accountIp, deps.clock());\n      throw new AccountError("invalidCredentials");\n    }`,
      },
    ],
    suite: "integration",
    test: CONCURRENCY,
    name: "signin:account-ip",
  },
  {
    point: "3",
    what: "phone codes: the limit is read before the SMS and counted after it",
    edits: [
      {
        file: ALERTS,
        find: `import { hitRateLimit, type RateRule } from "../rate-limit/rate-limit.server";`,
        replace: `import { hitRateLimit, peekRateLimit, type RateRule } from "../rate-limit/rate-limit.server";`,
      },
      {
        file: ALERTS,
        find: `const hit = await hitRateLimit(db, PHONE_CODE_RULE, userId, now);`,
        replace: `const hit = await peekRateLimit(db, PHONE_CODE_RULE, userId, now);`,
      },
      {
        file: ALERTS,
        find: `    await enqueueSms(trx, { to: phone, text: t("alerts.sms.code", { code, never: neverUrl }) }, now);\n  });\n`,
        replace: `    await enqueueSms(trx, { to: phone, text: t("alerts.sms.code", { code, never: neverUrl }) }, now);\n  });\n  await hitRateLimit(db, PHONE_CODE_RULE, userId, now);\n`,
      },
    ],
    suite: "service",
    test: CONCURRENCY,
    name: "phone:code",
  },
  {
    point: "3",
    what: "trusted contacts' replies: the limit is read before the reply and counted after it",
    edits: [
      {
        file: CONTACTS,
        find: `import { rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";`,
        replace: `import { peekRateLimit, rateLimiter, type RateRule } from "../rate-limit/rate-limit.server";`,
      },
      {
        file: CONTACTS,
        find: `const limited = await rateLimiter(deps.config, deps.db)(CONTACT_REPLY_RULE, contact.id, deps.clock());`,
        replace: `const limited = await peekRateLimit(deps.db, CONTACT_REPLY_RULE, contact.id, deps.clock());`,
      },
      {
        file: CONTACTS,
        find: `    await storeOwnerSideReply(deps, conversation, item, body, { id: contact.id, name: contact.name });\n`,
        replace: `    await storeOwnerSideReply(deps, conversation, item, body, { id: contact.id, name: contact.name });\n    await rateLimiter(deps.config, deps.db)(CONTACT_REPLY_RULE, contact.id, deps.clock());\n`,
      },
    ],
    suite: "service",
    test: CONCURRENCY,
    name: "trusted:reply",
  },
  {
    point: "4",
    what: "a flooded item refuses every finder instead of asking for the captcha",
    edits: [
      {
        file: RELAY,
        find: `if (flooded && !input.js && !input.captchaToken) throw new RelayError("flooded", { count: byItem.retryAfterMinutes });`,
        replace: `if (flooded) throw new RelayError("rateLimited", { count: byItem.retryAfterMinutes });`,
      },
    ],
    suite: "unit",
    test: "app/server/relay/relay-flood.service.server.test.ts",
    name: "a flood of finder messages",
  },
  {
    point: "4",
    what: "one mail per message during a flood, no digest",
    edits: [
      {
        file: RELAY,
        find: `const digested = await digestFinderMessage(deps, itemId, flooded, now);`,
        replace: `const digested = false && (await digestFinderMessage(deps, itemId, flooded, now));`,
      },
    ],
    suite: "integration",
    test: CONCURRENCY,
    name: "relay digest",
  },
  {
    point: "5",
    what: "the personal export holds organisation items the user registered",
    edits: [
      {
        file: PRIVACY,
        find: `    .where("products.owner", "=", userId)\n    .where("products.organisationId", "is", null);`,
        replace: `    .where("products.owner", "=", userId);`,
      },
    ],
    suite: "integration",
    test: "tests/integration/account.test.ts",
    name: "the personal export holds personal items only",
  },
  {
    point: "6",
    what: "a payer who left the organisation still reaches the order's pages",
    edits: [
      {
        file: "app/server/orders/order-access.server.ts",
        find: `  if (!membership) throw new OrderError("notFound");\n  if (may(order.userId === userId ? "placer" : membership.role, "order", action)) return order;\n`,
        replace: `  if (order.userId === userId) return order;\n  if (!membership) throw new OrderError("notFound");\n  if (may(membership.role, "order", action)) return order;\n`,
      },
    ],
    suite: "integration",
    test: "tests/integration/security.test.ts",
    name: "a removed member gets an outsider's answer on every order route",
  },
  {
    point: "7",
    what: "invite links are logged in clear",
    edits: [
      {
        file: "app/server/secret-urls.server.ts",
        find: `  { route: "/invite/:token", what: "organisation invite link (decision 022; only its hash is stored)" },\n`,
        replace: "",
      },
    ],
    suite: "integration",
    test: "tests/integration/log-redaction.test.ts",
    name: "secrets in URLs never reach the request log",
  },
];

function sh(cmd: string, args: string[]) {
  return spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
}

function apply(edits: Edit[]): Map<string, string> {
  const originals = new Map<string, string>();
  for (const e of edits) {
    const before = originals.get(e.file) ?? fs.readFileSync(e.file, "utf8");
    if (!originals.has(e.file)) originals.set(e.file, before);
    const current = fs.readFileSync(e.file, "utf8");
    const n = current.split(e.find).length - 1;
    if (n !== 1) throw new Error(`${e.file}: the fix's code was found ${n} times, expected once:\n${e.find}`);
    fs.writeFileSync(
      e.file,
      current.replace(e.find, () => e.replace),
    );
  }
  return originals;
}

function build() {
  const r = sh("npm", ["run", "-s", "build"]);
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr.slice(-2000)}`);
}

interface Outcome {
  ran: number;
  failed: number;
  firstFailure: string;
}

function runTest(m: Mutation): Outcome {
  const out = path.join(os.tmpdir(), `prove-${process.pid}.json`);
  const config = m.suite === "unit" ? [] : ["--config", "vitest.integration.config.ts"];
  sh("npx", ["vitest", "run", ...config, m.test, "-t", m.name, "--reporter=json", `--outputFile=${out}`]);
  if (!fs.existsSync(out)) return { ran: 0, failed: 0, firstFailure: "" };
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
    testResults: { assertionResults: { status: string; failureMessages: string[]; fullName: string }[] }[];
  };
  fs.rmSync(out);
  const results = report.testResults.flatMap((f) => f.assertionResults);
  const ran = results.filter((r) => r.status === "passed" || r.status === "failed");
  const failed = ran.filter((r) => r.status === "failed");
  const msg = failed[0]?.failureMessages[0]?.split("\n").find((l) => l.trim() !== "") ?? "";
  return { ran: ran.length, failed: failed.length, firstFailure: failed[0] ? `${failed[0].fullName}: ${msg}` : "" };
}

const only = process.argv.slice(2);
const chosen = mutations.filter((m) => only.length === 0 || only.includes(m.point));
const db = /^postgres/.test(process.env.DATABASE_URL ?? "") ? "PostgreSQL" : "SQLite";
let survived = 0;
console.log(`Security mutation check on ${db}: ${chosen.length} mutations`);
for (const m of chosen) {
  const originals = apply(m.edits);
  let outcome: Outcome;
  try {
    if (m.suite === "integration") build();
    outcome = runTest(m);
  } finally {
    for (const [file, text] of originals) fs.writeFileSync(file, text);
  }
  const killed = outcome.ran > 0 && outcome.failed > 0;
  if (!killed) survived++;
  const verdict = outcome.ran === 0 ? "NO TEST RAN" : killed ? "caught" : "SURVIVED";
  console.log(`point ${m.point}: ${m.what}: ${verdict} (${outcome.failed}/${outcome.ran} failed)`);
  if (outcome.firstFailure) console.log(`    ${outcome.firstFailure.slice(0, 300)}`);
}
if (chosen.some((m) => m.suite === "integration")) build();
console.log(survived === 0 ? "Every mutation was caught." : `${survived} mutation(s) not caught.`);
process.exit(survived === 0 ? 0 : 1);
