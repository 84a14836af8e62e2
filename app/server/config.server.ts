/**
 * The only reader of process.env. Everything the server needs is validated here once,
 * at start-up, and a bad value stops the process with a message naming the variable.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { OneTimeMethod } from "~/lib/domain/one-time-payment";
import { ConfigError, emailList, emptyToUndefined, optionalString } from "./config/env.server";
import { backupSettings, operationsConfig, operationsEnv, type OperationsConfig } from "./config/operations.server";
import { photosConfig, photosEnv, type PhotosConfig } from "./config/photos.server";
import { oneTimeMethodsOf, paymentsEnv } from "./config/payments.server";
import { pushConfig, pushEnv, type PushConfig } from "./config/push.server";
import { webhooksConfig, webhooksEnv, type WebhooksConfig } from "./config/webhooks.server";
import { sellerConfig, sellerEnv, type Seller } from "./config/seller.server";
import { smsConfig, smsEnv, type SmsConfig } from "./config/sms.server";

export { ConfigError } from "./config/env.server";
export { EXAMPLE_SELLER, REQUIRED_SELLER_VARIABLES, type Seller } from "./config/seller.server";

const schema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("production")),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("file:./data/hittad.sqlite")
      .refine((v) => v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v), {
        message: "must be a file: URL (SQLite) or a postgres:// URL",
      }),
  ),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_OUTBOX_DIR: z.preprocess(emptyToUndefined, z.string().default("./data/outbox")),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default("Hittad <no-reply@hittad.se>")),
  /** How often the mail worker looks for due mail (it is also woken at once by new mail). */
  MAIL_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(600_000).default(2000)),
  ...smsEnv,
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default("support@hittad.se")),
  PAYMENTS: z.preprocess(emptyToUndefined, z.enum(["test", "stripe"]).optional()),
  /** Test payments with NODE_ENV=production: refused unless this is 1 (decision 012; npm start sets it). */
  ALLOW_TEST_PAYMENTS: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  ...paymentsEnv,
  ...sellerEnv,
  /** Items an organisation may have activated on credit until its first invoice is paid (decision 028). */
  INVOICE_CREDIT_ITEMS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(25)),
  CAPTCHA: z.preprocess(emptyToUndefined, z.enum(["altcha", "recaptcha"]).default("altcha")),
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_SECRET: optionalString,
  RECAPTCHA_VERIFY_URL: z.preprocess(
    emptyToUndefined,
    z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  ),
  ADMIN_EMAILS: emailList,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  FACEBOOK_CLIENT_ID: optionalString,
  FACEBOOK_CLIENT_SECRET: optionalString,
  TWITTER_CLIENT_ID: optionalString,
  TWITTER_CLIENT_SECRET: optionalString,
  /** Test-only: an OpenID provider standing in for the social providers (see docs/decisions). */
  OAUTH_TEST_ISSUER: z.preprocess(emptyToUndefined, z.url().optional()),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  /** `1` behind one reverse proxy: client IPs (rate limits, logs) from X-Forwarded-For. */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  ...pushEnv,
  ...webhooksEnv,
  /** Turns on GET /metrics (Prometheus), readable only with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  /** Optional second listener that serves only /metrics (same token), e.g. on an internal network. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  /** Delay before the first run of the hourly jobs after start-up (tests set it short). */
  JOBS_FIRST_RUN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(60_000)),
  /** Requests a minute each REST API key may make (decision 054); 600 by default. */
  API_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(600)),
  /** Disables rate limits; refused in production. Only the e2e suite sets it. */
  RATE_LIMIT_DISABLED: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  ...photosEnv,
  ...operationsEnv,
});

/** Every variable the schema reads (README and .env.example must document each). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

export type DatabaseTarget =
  | {
      kind: "sqlite";
      file: string;
      url: string;
      /**
       * An in-memory database's starting contents, as better-sqlite3's `serialize()` gives
       * them (only with `file` ":memory:"; never from the environment). The service tests
       * start from their migrated template this way instead of migrating each database.
       */
      image?: Buffer;
    }
  | { kind: "postgres"; url: string };

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  baseUrl: URL;
  database: DatabaseTarget;
  dataDir: string;
  authSecret: string;
  authSecretGenerated: boolean;
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
  mailPollMs: number;
  sms: SmsConfig;
  /** INVOICE_CREDIT_ITEMS: items on unpaid invoices until an organisation's first invoice is paid. */
  invoiceCreditItems: number;
  supportEmail: string;
  payments: "test" | "stripe";
  stripe: { secretKey?: string; webhookSecret?: string; apiUrl?: string };
  /** STRIPE_ONE_TIME_METHODS (decision 056): a year paid at once; the test provider simulates them. */
  oneTimeMethods: OneTimeMethod[];
  /**
   * The seller. Outside production-with-Stripe an unset required field is filled with an
   * example value and `example` is true: every page that shows the seller says so.
   */
  company: Seller;
  captcha: "altcha" | "recaptcha";
  recaptcha: { siteKey?: string; secret?: string; verifyUrl: string };
  adminEmails: string[];
  oauth: {
    google?: { clientId: string; clientSecret: string };
    facebook?: { clientId: string; clientSecret: string };
    twitter?: { clientId: string; clientSecret: string };
    testIssuer?: string;
  };
  logLevel: string;
  rateLimitDisabled: boolean;
  /** The REST API (decision 054): requests a minute per key. */
  api: { rateLimit: number };
  /** BASE_URL is https: cookies get `Secure` and responses HSTS. The one place that decides. */
  secureCookies: boolean;
  /** Express's `trust proxy` (TRUST_PROXY=1: one hop). */
  trustProxy: boolean;
  push: PushConfig;
  /** The organisations' webhooks (decision 061). */
  webhooks: WebhooksConfig;
  photos: PhotosConfig;
  /** Delay before the hourly jobs' first run after start-up. */
  jobsFirstRunMs: number;
  /** Metrics on (GET /metrics with this bearer token), or off (404). */
  metrics: { token?: string; port?: number };
  /** Backups and shutdown (decision 048). */
  operations: OperationsConfig;
}

function pair(id: string | undefined, secret: string | undefined, name: string) {
  if (!id && !secret) return undefined;
  if (!id || !secret) throw new ConfigError(`${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`);
  return { clientId: id, clientSecret: secret };
}

/** Parse an environment into a Config. Pure apart from the SQLite auth-secret file. */
export function parseConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const baseUrl = new URL(e.BASE_URL ?? `http://localhost:${e.PORT}`);

  const database = databaseTarget(e.DATABASE_URL, cwd);
  const dataDir = dataDirOf(database, cwd);

  let authSecret = e.AUTH_SECRET;
  let authSecretGenerated = false;
  if (!authSecret) {
    if (database.kind === "postgres") {
      throw new ConfigError(
        "Invalid configuration:\n  AUTH_SECRET: required with PostgreSQL (every app instance must share it)",
      );
    }
    // Zero set-up on SQLite: generate once and keep it beside the database file.
    const file = path.join(dataDir, "auth-secret");
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (fs.existsSync(file)) authSecret = fs.readFileSync(file, "utf8").trim();
    if (!authSecret || authSecret.length < 32) {
      authSecret = randomBytes(32).toString("base64url");
      fs.writeFileSync(file, authSecret + "\n", { mode: 0o600 });
    }
    authSecretGenerated = true;
  }

  const payments = e.PAYMENTS ?? (e.STRIPE_SECRET_KEY ? "stripe" : "test");
  if (payments === "stripe" && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      "Invalid configuration:\n  PAYMENTS: 'stripe' needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET",
    );
  }
  if (payments === "test" && e.STRIPE_SECRET_KEY?.startsWith("sk_live_")) {
    throw new ConfigError("Invalid configuration:\n  PAYMENTS: test payments cannot be enabled with a live Stripe key");
  }
  if (payments === "test" && e.NODE_ENV === "production" && e.ALLOW_TEST_PAYMENTS !== "1") {
    // Anyone could activate items for free and send receipts: never by accident.
    throw new ConfigError(
      "Invalid configuration:\n  PAYMENTS: test payments are refused in production; set STRIPE_SECRET_KEY and " +
        "STRIPE_WEBHOOK_SECRET, or ALLOW_TEST_PAYMENTS=1 for a demo",
    );
  }
  if (e.CAPTCHA === "recaptcha" && (!e.RECAPTCHA_SITE_KEY || !e.RECAPTCHA_SECRET)) {
    throw new ConfigError(
      "Invalid configuration:\n  CAPTCHA: 'recaptcha' needs RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET",
    );
  }
  if (e.METRICS_PORT !== undefined && !e.METRICS_TOKEN) {
    throw new ConfigError("Invalid configuration:\n  METRICS_PORT: needs METRICS_TOKEN");
  }
  if (e.RATE_LIMIT_DISABLED === "1" && e.NODE_ENV === "production" && !env.HITTAD_TEST_RUN) {
    throw new ConfigError("Invalid configuration:\n  RATE_LIMIT_DISABLED: not allowed in production");
  }

  const company = sellerConfig(e, payments === "stripe" && e.NODE_ENV === "production");
  const sms = smsConfig(e, cwd);
  const push = pushConfig(e, e.SUPPORT_EMAIL);
  const photos = photosConfig(e);

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    database,
    dataDir,
    authSecret,
    authSecretGenerated,
    smtpUrl: e.SMTP_URL,
    mailOutboxDir: path.resolve(cwd, e.MAIL_OUTBOX_DIR),
    mailFrom: e.MAIL_FROM,
    mailPollMs: e.MAIL_POLL_MS,
    sms,
    invoiceCreditItems: e.INVOICE_CREDIT_ITEMS,
    supportEmail: e.SUPPORT_EMAIL,
    payments,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL },
    oneTimeMethods: oneTimeMethodsOf(e.STRIPE_ONE_TIME_METHODS),
    company,
    captcha: e.CAPTCHA,
    recaptcha: { siteKey: e.RECAPTCHA_SITE_KEY, secret: e.RECAPTCHA_SECRET, verifyUrl: e.RECAPTCHA_VERIFY_URL },
    adminEmails: e.ADMIN_EMAILS,
    oauth: {
      google: pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, "GOOGLE"),
      facebook: pair(e.FACEBOOK_CLIENT_ID, e.FACEBOOK_CLIENT_SECRET, "FACEBOOK"),
      twitter: pair(e.TWITTER_CLIENT_ID, e.TWITTER_CLIENT_SECRET, "TWITTER"),
      testIssuer: e.OAUTH_TEST_ISSUER,
    },
    logLevel: e.LOG_LEVEL,
    rateLimitDisabled: e.RATE_LIMIT_DISABLED === "1",
    api: { rateLimit: e.API_RATE_LIMIT },
    secureCookies: baseUrl.protocol === "https:",
    trustProxy: e.TRUST_PROXY === "1",
    push,
    webhooks: webhooksConfig(e),
    photos,
    jobsFirstRunMs: e.JOBS_FIRST_RUN_MS,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    operations: operationsConfig(e, cwd),
  };
}

/** The data folder: beside the SQLite file, else ./data (the generated auth secret lives there). */
function dataDirOf(database: DatabaseTarget, cwd: string): string {
  return database.kind === "sqlite" && database.file !== ":memory:"
    ? path.dirname(database.file)
    : path.resolve(cwd, "data");
}

function databaseTarget(url: string, cwd: string): DatabaseTarget {
  if (url.startsWith("file:")) {
    const raw = decodeURIComponent(url.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
    if (!raw) throw new ConfigError("Invalid configuration:\n  DATABASE_URL: file: URL has no path");
    return { kind: "sqlite", file: raw === ":memory:" ? raw : path.resolve(cwd, raw), url };
  }
  return { kind: "postgres", url };
}

/**
 * Only DATABASE_URL, for `npm run db:migrate`: migrating needs no AUTH_SECRET or other
 * settings, so an operator can migrate PostgreSQL with just the database URL.
 */
export function parseDatabaseConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): DatabaseTarget {
  const parsed = schema.shape.DATABASE_URL.safeParse(env.DATABASE_URL);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  DATABASE_URL: ${parsed.error.issues[0]?.message}`);
  }
  return databaseTarget(parsed.data, cwd);
}

/** What `npm run backup` and `npm run restore` need (decision 048). */
export interface BackupToolConfig {
  database: DatabaseTarget;
  dataDir: string;
  backups: OperationsConfig["backups"];
  photos: PhotosConfig;
}

/**
 * Only the database, the backup settings and the photo storage, for the backup and restore
 * scripts: neither needs AUTH_SECRET, and a restore into an empty data folder must not
 * generate a new auth secret before it puts the backed-up one back.
 */
export function parseBackupToolConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): BackupToolConfig {
  const tool = schema.pick({
    DATABASE_URL: true,
    BACKUP_DIR: true,
    BACKUP_PASSPHRASE: true,
    BACKUP_EVERY: true,
    PHOTO_STORAGE_MB: true,
    PHOTO_STORAGE_ORGANISATION_MB: true,
    S3_ENDPOINT: true,
    S3_BUCKET: true,
    S3_REGION: true,
    S3_ACCESS_KEY_ID: true,
    S3_SECRET_ACCESS_KEY: true,
    S3_PREFIX: true,
  });
  const parsed = tool.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const database = databaseTarget(e.DATABASE_URL, cwd);
  return { database, dataDir: dataDirOf(database, cwd), backups: backupSettings(e, cwd), photos: photosConfig(e) };
}

/**
 * Only LOG_LEVEL, for the logger, which exists before the rest of the configuration is
 * parsed (and must log why parsing failed). An invalid value falls back to `info`;
 * parseConfig then stops the start with its message.
 */
export function parseLogLevel(env: NodeJS.ProcessEnv): string {
  const parsed = schema.shape.LOG_LEVEL.safeParse(env.LOG_LEVEL);
  return parsed.success ? parsed.data : "info";
}

let cached: Config | undefined;
/** The process's configuration, parsed on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
