/**
 * SMS through 46elks (https://46elks.com/docs/send-sms), the Swedish SMS API, over plain
 * HTTP: POST {ELKS_API_URL}/a1/sms with HTTP Basic (API username and password) and the
 * form fields from, to, message and whendelivered (the delivery-report URL). Without
 * credentials each SMS becomes a text file in SMS_OUTBOX_DIR, so a fresh checkout runs
 * and shows what it would send. Called by the outbox worker (mail/mail.server.ts) through
 * `deps.senders.sms`.
 */
import type { Config } from "../config.server";
import { PermanentError, type ChannelSender, type OutboxRow } from "../channels/channel.server";
import { writeOutboxFile } from "../channels/outbox-file.server";
import { logger } from "../logger.server";
import type { DB } from "../db/db.server";
import { fingerprintsOf, isSuppressed } from "../channels/suppressions.repository.server";
import { smsCountryAllowed } from "./sms-guard.server";
import { systemClock, type Clock } from "../clock.server";

/** A provider that does not answer in this time is retried later. */
export const ELKS_TIMEOUT_MS = 10_000;

function metaOf(row: OutboxRow, key: "whendelivered" | "from"): string | undefined {
  if (!row.meta) return undefined;
  try {
    const meta = JSON.parse(row.meta) as Record<string, unknown>;
    return typeof meta[key] === "string" ? meta[key] : undefined;
  } catch {
    return undefined;
  }
}

const reportUrlOf = (row: OutboxRow) => metaOf(row, "whendelivered");
/** Decision 055: an SMS a finder may answer goes from SMS_NUMBER, every other from SMS_FROM. */
const senderOf = (row: OutboxRow, config: Pick<Config, "sms">) => metaOf(row, "from") ?? config.sms.from;

/**
 * Decision 046: checked again at sending time, so a number queued before the operator
 * narrowed SMS_COUNTRIES (or by any path that forgot to ask) never costs an SMS.
 */
function refuseOtherCountries(config: Pick<Config, "sms">, row: OutboxRow): void {
  if (!smsCountryAllowed(config, row.to)) throw new PermanentError("number outside SMS_COUNTRIES");
}

/**
 * Decision 055: a number that texted STOP (or is otherwise on the suppression list, decision
 * 046) gets no SMS of any kind, whatever queued it.
 */
async function refuseSuppressed(db: DB | undefined, row: OutboxRow): Promise<void> {
  if (db && (await isSuppressed(db, fingerprintsOf("sms", row.to)))) {
    throw new PermanentError("the number asked for no more SMS");
  }
}

/**
 * The SMS channel's sender, made once at start-up (runtime.server.ts) and carried by Deps
 * as `senders.sms` (decision 039): 46elks with credentials, else the SMS outbox folder.
 */
export function createSmsSender(config: Pick<Config, "sms">, db?: DB, clock: Clock = systemClock): ChannelSender {
  const { sms } = config;
  if (sms.username && sms.password) {
    const auth = "Basic " + Buffer.from(`${sms.username}:${sms.password}`).toString("base64");
    const url = `${sms.apiUrl}/a1/sms`;
    return {
      async send(row) {
        refuseOtherCountries(config, row);
        await refuseSuppressed(db, row);
        const body = new URLSearchParams({ from: senderOf(row, config), to: row.to, message: row.text });
        const report = reportUrlOf(row);
        if (report) body.set("whendelivered", report);
        let res: Response;
        try {
          res = await fetch(url, {
            method: "POST",
            headers: { Authorization: auth, "Content-Type": "application/x-www-form-urlencoded" },
            body,
            signal: AbortSignal.timeout(ELKS_TIMEOUT_MS),
          });
        } catch (err) {
          // Network trouble or the time-out: retried with back-off.
          throw new Error(`46elks unreachable: ${err instanceof Error ? err.name : "error"}`, { cause: err });
        }
        const text = await res.text().catch(() => "");
        // No number in the error: it is logged and stored with the delivery.
        if (res.status >= 500 || res.status === 429) throw new Error(`46elks answered ${res.status}`);
        if (!res.ok) throw new PermanentError(`46elks refused the SMS (${res.status})`);
        let id: string | null;
        try {
          const json = JSON.parse(text) as { id?: unknown };
          id = typeof json.id === "string" ? json.id : null;
        } catch {
          id = null;
        }
        return { providerId: id };
      },
    };
  }
  return {
    async send(row) {
      refuseOtherCountries(config, row);
      await refuseSuppressed(db, row);
      const report = reportUrlOf(row);
      const lines = [
        `From: ${senderOf(row, config)}`,
        `To: ${row.to}`,
        ...(report ? [`Whendelivered: ${report}`] : []),
        "",
        row.text,
      ];
      const file = await writeOutboxFile(sms.outboxDir, `${clock()}-${row.id}.txt`, lines.join("\n") + "\n");
      logger.info({ smsId: row.id, file }, "SMS written to outbox folder (no 46elks credentials)");
      return { providerId: null };
    },
  };
}
