/**
 * The only reader of process.env. Everything the server needs is validated here once,
 * at start-up, and a bad value stops the process with a message naming the variable.
 */
import { createECDH, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const emailList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email())),
);

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
  /** 46elks (decision 033): without both credentials SMS are written to SMS_OUTBOX_DIR. */
  ELKS_API_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default("https://api.46elks.com")),
  ELKS_API_USERNAME: optionalString,
  ELKS_API_PASSWORD: optionalString,
  /** The sender shown on the phone: E.164, or up to 11 letters and digits. */
  SMS_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(\+[1-9]\d{6,14}|[A-Za-z][A-Za-z0-9]{1,10})$/, "must be E.164 or 2–11 letters and digits")
      .default("Hittad"),
  ),
  SMS_OUTBOX_DIR: z.preprocess(emptyToUndefined, z.string().default("./data/sms-outbox")),
  /** The SMS cost guard: per item per day, per account per 30 days. */
  SMS_LIMIT_PER_ITEM_DAY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).default(10)),
  SMS_LIMIT_PER_ACCOUNT_MONTH: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(1_000_000).default(100),
  ),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default("support@hittad.se")),
  PAYMENTS: z.preprocess(emptyToUndefined, z.enum(["test", "stripe"]).optional()),
  /** Test payments with NODE_ENV=production: refused unless this is 1 (decision 012; npm start sets it). */
  ALLOW_TEST_PAYMENTS: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /**
   * The seller (decision 016): on receipts, invoices, the checkout, /contact, /privacy and
   * /terms. Name, organisation number, address and email are required with Stripe in
   * production; the VAT number is optional (a seller below the VAT threshold has none).
   */
  COMPANY_NAME: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  COMPANY_ORG_NR: z.preprocess(emptyToUndefined, z.string().max(50).optional()),
  COMPANY_VAT_NR: z.preprocess(emptyToUndefined, z.string().max(50).optional()),
  COMPANY_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  /** Items an organisation may have activated on credit until its first invoice is paid (decision 028). */
  INVOICE_CREDIT_ITEMS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(25)),
  COMPANY_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
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
  /**
   * Web push (decision 034): the VAPID key pair (base64url, as web-push's
   * generate-vapid-keys prints them) and the contact push services may use. Without the
   * pair one is generated once and kept in the database, shared by every instance.
   */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^mailto:[^@\s]+@[^@\s]+$/.test(v) || /^https:\/\/[^\s]+$/.test(v), {
        message: "must be a mailto: address or an https: URL",
      })
      .optional(),
  ),
  /**
   * host:port pairs that push endpoints may point at although they resolve to a private or
   * loopback address (local push-service stand-ins); comma-separated.
   */
  PUSH_ALLOW_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/, "each entry must be host:port"))),
  ),
  /** Turns on GET /metrics (Prometheus), readable only with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  /** Optional second listener that serves only /metrics (same token), e.g. on an internal network. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  /** Delay before the first run of the hourly jobs after start-up (tests set it short). */
  JOBS_FIRST_RUN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(60_000)),
  /** Disables rate limits; refused in production. Only the e2e suite sets it. */
  RATE_LIMIT_DISABLED: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  /** Item photos (decision 035): the most photo bytes one account may store, in MB. */
  PHOTO_STORAGE_MB: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(100_000).default(50)),
  /** S3-compatible object storage for photos; without S3_ENDPOINT they live in the database. */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  S3_BUCKET: optionalString,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Key prefix inside the bucket, e.g. `hittad/`. */
  S3_PREFIX: z.preprocess(emptyToUndefined, z.string().max(200).default("")),
});

/** Every variable the schema reads (README and .env.example must document each). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

export type DatabaseTarget = { kind: "sqlite"; file: string; url: string } | { kind: "postgres"; url: string };

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
  /** SMS by 46elks (credentials set) or into the outbox folder (decision 033). */
  sms: {
    apiUrl: string;
    username?: string;
    password?: string;
    from: string;
    outboxDir: string;
    limitPerItemDay: number;
    limitPerAccountMonth: number;
  };
  /** INVOICE_CREDIT_ITEMS: items on unpaid invoices until an organisation's first invoice is paid. */
  invoiceCreditItems: number;
  supportEmail: string;
  payments: "test" | "stripe";
  stripe: { secretKey?: string; webhookSecret?: string; apiUrl?: string };
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
  /** BASE_URL is https: cookies get `Secure` and responses HSTS. The one place that decides. */
  secureCookies: boolean;
  /** Express's `trust proxy` (TRUST_PROXY=1: one hop). */
  trustProxy: boolean;
  push: {
    /** From VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; unset: generated once, kept in the database. */
    vapid?: { publicKey: string; privateKey: string };
    /** VAPID_SUBJECT, default mailto:SUPPORT_EMAIL. */
    subject: string;
    /** PUSH_ALLOW_HOSTS, lower case host:port. */
    allowHosts: string[];
  };
  /** Item photos (decision 035): per-account bound, and S3 settings (absent: in the database). */
  photos: {
    storageBytes: number;
    s3?: {
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      prefix: string;
    };
  };
  /** Delay before the hourly jobs' first run after start-up. */
  jobsFirstRunMs: number;
  /** Metrics on (GET /metrics with this bearer token), or off (404). */
  metrics: { token?: string; port?: number };
}

export interface Seller {
  name: string;
  orgNr: string;
  /** Absent below the VAT threshold. */
  vatNr?: string;
  /** Lines separated by "\n". */
  address: string;
  email: string;
  /** Some required field is an example value (the demo): pages mark the seller as an example. */
  example: boolean;
}

/** The settings production with real payments cannot start without. */
export const REQUIRED_SELLER_VARIABLES = [
  "COMPANY_NAME",
  "COMPANY_ORG_NR",
  "COMPANY_ADDRESS",
  "COMPANY_EMAIL",
] as const;

/** What the demo shows for an unset seller field, always marked as an example. */
export const EXAMPLE_SELLER = {
  name: "Hittad Exempel AB",
  orgNr: "559000-0000",
  address: "Exempelgatan 1\n111 22 Stockholm",
  email: "seller@example.com",
} as const;

export class ConfigError extends Error {
  override name = "ConfigError";
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
  const dataDir =
    database.kind === "sqlite" && database.file !== ":memory:"
      ? path.dirname(database.file)
      : path.resolve(cwd, "data");

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
  const missingSeller = REQUIRED_SELLER_VARIABLES.filter((name) => !e[name]);
  if (payments === "stripe" && e.NODE_ENV === "production" && missingSeller.length > 0) {
    // Selling without saying who sells is unlawful (e-handelslagen 8 §, distansavtalslagen 2 kap. 2 §).
    throw new ConfigError(
      `Invalid configuration:\n  ${missingSeller.join(", ")}: required with PAYMENTS=stripe in production ` +
        "(the seller's identity on receipts, invoices, the checkout and the privacy notice)",
    );
  }
  if (!e.ELKS_API_USERNAME !== !e.ELKS_API_PASSWORD) {
    throw new ConfigError("Invalid configuration:\n  ELKS_API_USERNAME and ELKS_API_PASSWORD must be set together");
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

  const vapid = vapidPair(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY);
  let s3: Config["photos"]["s3"];
  if (e.S3_ENDPOINT || e.S3_BUCKET || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY) {
    if (!e.S3_ENDPOINT || !e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        "Invalid configuration:\n  S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
      );
    }
    const prefix = e.S3_PREFIX === "" || e.S3_PREFIX.endsWith("/") ? e.S3_PREFIX : `${e.S3_PREFIX}/`;
    s3 = {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      prefix,
    };
  }

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
    sms: {
      apiUrl: e.ELKS_API_URL.replace(/\/+$/, ""),
      username: e.ELKS_API_USERNAME,
      password: e.ELKS_API_PASSWORD,
      from: e.SMS_FROM,
      outboxDir: path.resolve(cwd, e.SMS_OUTBOX_DIR),
      limitPerItemDay: e.SMS_LIMIT_PER_ITEM_DAY,
      limitPerAccountMonth: e.SMS_LIMIT_PER_ACCOUNT_MONTH,
    },
    invoiceCreditItems: e.INVOICE_CREDIT_ITEMS,
    supportEmail: e.SUPPORT_EMAIL,
    payments,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL },
    company: {
      name: e.COMPANY_NAME ?? EXAMPLE_SELLER.name,
      orgNr: e.COMPANY_ORG_NR ?? EXAMPLE_SELLER.orgNr,
      vatNr: e.COMPANY_VAT_NR,
      // "\n" in the variable separates lines (one-line .env files).
      address: (e.COMPANY_ADDRESS ?? EXAMPLE_SELLER.address).replace(/\\n/g, "\n"),
      email: e.COMPANY_EMAIL ?? EXAMPLE_SELLER.email,
      example: missingSeller.length > 0,
    },
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
    secureCookies: baseUrl.protocol === "https:",
    trustProxy: e.TRUST_PROXY === "1",
    push: {
      vapid,
      subject: e.VAPID_SUBJECT ?? `mailto:${e.SUPPORT_EMAIL}`,
      allowHosts: e.PUSH_ALLOW_HOSTS,
    },
    photos: { storageBytes: Math.round(e.PHOTO_STORAGE_MB * 1024 * 1024), s3 },
    jobsFirstRunMs: e.JOBS_FIRST_RUN_MS,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
  };
}

/** Both VAPID keys or neither; the private key must belong to the public one (P-256). */
function vapidPair(publicKey: string | undefined, privateKey: string | undefined) {
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) {
    throw new ConfigError("Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
  }
  const base64url = /^[A-Za-z0-9_-]+$/;
  const pub = base64url.test(publicKey) ? Buffer.from(publicKey, "base64url") : Buffer.alloc(0);
  const priv = base64url.test(privateKey) ? Buffer.from(privateKey, "base64url") : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    throw new ConfigError(
      "Invalid configuration:\n  VAPID_PUBLIC_KEY: must be a base64url P-256 public key (65 bytes)",
    );
  }
  if (priv.length !== 32) {
    throw new ConfigError(
      "Invalid configuration:\n  VAPID_PRIVATE_KEY: must be a base64url P-256 private key (32 bytes)",
    );
  }
  let derived: Buffer;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(priv);
    derived = ecdh.getPublicKey();
  } catch {
    throw new ConfigError("Invalid configuration:\n  VAPID_PRIVATE_KEY: not a valid P-256 private key");
  }
  if (!derived.equals(pub)) {
    throw new ConfigError("Invalid configuration:\n  VAPID_PRIVATE_KEY: does not belong to VAPID_PUBLIC_KEY");
  }
  return { publicKey, privateKey };
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
