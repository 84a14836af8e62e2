/**
 * SMS settings (decisions 033, 046): 46elks, or the outbox folder without credentials; the
 * cost guard's limits, the operator's daily budget and the countries SMS may go to.
 */
import path from "node:path";
import { z } from "zod";
import { ConfigError, emptyToUndefined, invalid, optionalString } from "./env.server";

export const smsEnv = {
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
  /** Decision 046: SMS of every kind (codes, invitations, alerts) all accounts together may send in a UTC day. */
  SMS_DAILY_BUDGET: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000_000).default(1000)),
  /** Decision 046: the country calling codes SMS may go to, e.g. "+46,+47". */
  SMS_COUNTRIES: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("+46,+47,+45,+358")
      .transform((v) => v.split(",").map((c) => c.trim()))
      .pipe(z.array(z.string().regex(/^\+[1-9]\d{0,2}$/, "must be country calling codes like +46,+47")).min(1)),
  ),
  /** Decision 055: Hittad's own 46elks virtual number finders text a sticker's code to (E.164); unset: no SMS finders. */
  SMS_NUMBER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\+[1-9]\d{7,14}$/, "must be a number in E.164 form, e.g. +46766861000")
      .optional(),
  ),
  /** Decision 055: the secret of 46elks' sms_url (?secret=…) for incoming SMS; required with SMS_NUMBER. */
  ELKS_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{24,128}$/, "must be 24–128 letters, digits, - or _ (e.g. openssl rand -hex 24)")
      .optional(),
  ),
};

type SmsEnv = z.infer<z.ZodObject<typeof smsEnv>>;

/** SMS by 46elks (credentials set) or into the outbox folder (decision 033). */
export interface SmsConfig {
  apiUrl: string;
  username?: string;
  password?: string;
  from: string;
  outboxDir: string;
  limitPerItemDay: number;
  limitPerAccountMonth: number;
  /** SMS_DAILY_BUDGET: all SMS in a UTC day, every account together. */
  dailyBudget: number;
  /** SMS_COUNTRIES: calling codes ("+46") a number must start with. */
  countries: string[];
  /** SMS_NUMBER (decision 055): the number finders text, replies to them come from it; undefined: none. */
  number?: string;
  /** ELKS_WEBHOOK_SECRET: the secret 46elks' incoming-SMS webhook carries. */
  webhookSecret?: string;
}

export function smsConfig(e: SmsEnv, cwd: string): SmsConfig {
  if (!e.ELKS_API_USERNAME !== !e.ELKS_API_PASSWORD) {
    throw new ConfigError("Invalid configuration:\n  ELKS_API_USERNAME and ELKS_API_PASSWORD must be set together");
  }
  // Decision 055: the webhook is open to the internet; without its secret anyone could text as anyone.
  if (e.SMS_NUMBER && !e.ELKS_WEBHOOK_SECRET) {
    throw invalid("ELKS_WEBHOOK_SECRET", "must be set when SMS_NUMBER is (the secret of 46elks' sms_url)");
  }
  return {
    apiUrl: e.ELKS_API_URL.replace(/\/+$/, ""),
    username: e.ELKS_API_USERNAME,
    password: e.ELKS_API_PASSWORD,
    from: e.SMS_FROM,
    outboxDir: path.resolve(cwd, e.SMS_OUTBOX_DIR),
    limitPerItemDay: e.SMS_LIMIT_PER_ITEM_DAY,
    limitPerAccountMonth: e.SMS_LIMIT_PER_ACCOUNT_MONTH,
    dailyBudget: e.SMS_DAILY_BUDGET,
    countries: [...new Set(e.SMS_COUNTRIES)],
    number: e.SMS_NUMBER,
    webhookSecret: e.SMS_NUMBER ? e.ELKS_WEBHOOK_SECRET : undefined,
  };
}
