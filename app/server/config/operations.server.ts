/**
 * Operating settings (decision 048): backups (where, how often, encrypted with what) and how
 * long a stopping server keeps answering while a load balancer takes it out.
 */
import path from "node:path";
import { z } from "zod";
import { emptyToUndefined, optionalString } from "./env.server";

/** `30m`, `6h`, `1d`: a backup interval. */
const DURATION = /^(\d+)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : undefined;
}

export const operationsEnv = {
  /** Where `npm run backup` and scheduled backups write, one folder per backup. */
  BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().default("./data/backups")),
  /** Encrypts backups with age (a passphrase-protected key per backup); unset: not encrypted. */
  BACKUP_PASSPHRASE: z.preprocess(emptyToUndefined, z.string().min(12, "must be at least 12 characters").optional()),
  /** A scheduled backup this often (`30m`, `6h`, `1d`); unset: none. */
  BACKUP_EVERY: optionalString.refine(
    (v) => v === undefined || (parseDuration(v) ?? 0) >= 15 * 60_000,
    "must be a duration of at least 15 minutes, like 30m, 6h or 1d",
  ),
  /** After SIGTERM: /readyz answers 503 this long before the listener closes (behind a load balancer). */
  SHUTDOWN_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(120_000).default(0)),
};

type OperationsEnv = z.infer<z.ZodObject<typeof operationsEnv>>;

export interface BackupSettings {
  /** Absolute. */
  dir: string;
  passphrase?: string;
  /** Scheduled backups' interval in ms; undefined: no scheduled backups. */
  everyMs?: number;
}

export interface OperationsConfig {
  backups: BackupSettings;
  shutdownDelayMs: number;
}

export function backupSettings(
  e: Pick<OperationsEnv, "BACKUP_DIR" | "BACKUP_PASSPHRASE" | "BACKUP_EVERY">,
  cwd: string,
) {
  return {
    dir: path.resolve(cwd, e.BACKUP_DIR),
    passphrase: e.BACKUP_PASSPHRASE,
    everyMs: e.BACKUP_EVERY === undefined ? undefined : parseDuration(e.BACKUP_EVERY),
  } satisfies BackupSettings;
}

export function operationsConfig(e: OperationsEnv, cwd: string): OperationsConfig {
  return { backups: backupSettings(e, cwd), shutdownDelayMs: e.SHUTDOWN_DELAY_MS };
}
