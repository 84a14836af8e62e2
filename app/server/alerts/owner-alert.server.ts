/**
 * The steps every alert to an account's own SMS and devices takes (decision 033), in one
 * place: the item alerts' fan-out (fanout.service.server.ts) and the payer's renewal alert
 * (year-alert.service.server.ts) both queue through `alertOwnerBySmsAndPush`.
 *
 * SMS only to the account's verified number, through the cost guard and the day's budget
 * (sms/sms-guard.server.ts: the item's day where the alert is about an item, the account's
 * 30 days, Hittad's day); a stopped SMS is recorded as `blocked`, a queued one carries its
 * own delivery-report secret (only its SHA-256 is stored). Push: one per device the account
 * subscribed. Every SMS and push is an `alert_deliveries` row and one outbox row, in the
 * caller's transaction, so they commit with the event.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { maskPhone } from "~/lib/domain/phone";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueuePush, enqueueSms } from "../mail/mail.server";
import type { PushPayload } from "../push/push-sender.server";
import { listSubscriptions } from "../push/push.repository.server";
import type { Deps } from "../service-deps.server";
import { admitSms, type SmsRefusal } from "../sms/sms-guard.server";
import * as repo from "./alerts.repository.server";

/** The hash under which a delivery-report secret is stored, and by which a report finds its delivery. */
export function reportTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A new SMS's delivery-report secret (192 bits): the hash its delivery row stores and the
 * `whendelivered` URL that carries it (`/api/sms/report/{token}`, in SECRET_URLS).
 */
export function smsReportSecret(config: Pick<Config, "baseUrl">): { tokenHash: string; reportUrl: string } {
  const token = randomBytes(24).toString("base64url");
  return {
    tokenHash: reportTokenHash(token),
    reportUrl: new URL(`/api/sms/report/${token}`, config.baseUrl).toString(),
  };
}

/** Records one delivery (`alert_deliveries`) and answers its id. */
export type RecordDelivery = (
  channel: string,
  label: string,
  status: repo.DeliveryRow["status"],
  tokenHash?: string,
  contactId?: string,
) => Promise<string>;

/**
 * The recorder of one alert's deliveries to one account: the account's own (`owner`), its
 * trusted contacts' (`contact`, given a `contactId`), or the desk's (`desk`, decision 040).
 */
export function deliveryRecorder(
  db: DB,
  about: {
    userId: string;
    itemId: string | null;
    conversationId: string | null;
    event: string;
    now: number;
    /** Default: `contact` for a delivery to a contact, else `owner`. */
    recipientKind?: repo.DeliveryRow["recipientKind"];
  },
): RecordDelivery {
  return async (channel, label, status, tokenHash, contactId) => {
    const row: repo.DeliveryRow = {
      id: randomUUID(),
      userId: about.userId,
      itemId: about.itemId,
      conversationId: about.conversationId,
      event: about.event,
      channel,
      recipientKind: about.recipientKind ?? (contactId ? "contact" : "owner"),
      contactId: contactId ?? null,
      recipientLabel: label,
      status,
      createdAt: about.now,
      reportTokenHash: tokenHash ?? null,
    };
    await repo.insertDelivery(db, row);
    return row.id;
  };
}

export interface OwnerAlert {
  userId: string;
  /** The channels the account chose for this event in its alert settings. */
  want: { sms: boolean; push: boolean };
  /** The item the alert is about: its SMS counts against the item's day too. None for the renewal. */
  itemId: string | null;
  /** Records the account's own deliveries (deliveryRecorder). */
  record: RecordDelivery;
  /** The SMS's text, and the number it comes from when not the default sender. */
  sms: () => { text: string; from?: string };
  push: () => PushPayload;
  /** Right after a stopped SMS is recorded (before any push is queued). */
  onBlocked?: (refusal: SmsRefusal) => Promise<void>;
}

export interface OwnerAlertResult {
  sms: number;
  push: number;
  /** SMS the cost guard or the day's budget stopped. */
  blocked: number;
}

/**
 * Queues the SMS (to the verified number, if the account chose SMS) and then one push per
 * subscribed device (if it chose push). `deps.db` is the caller's transaction.
 */
export async function alertOwnerBySmsAndPush(
  deps: Pick<Deps, "db" | "config">,
  alert: OwnerAlert,
  now: number,
): Promise<OwnerAlertResult> {
  const { db, config } = deps;
  const out: OwnerAlertResult = { sms: 0, push: 0, blocked: 0 };

  const phone = alert.want.sms ? await repo.verifiedPhoneOf(db, alert.userId) : null;
  if (phone) {
    const payer = { ...(alert.itemId ? { itemId: alert.itemId } : {}), accountKey: `account:${alert.userId}` };
    const admitted = await admitSms(db, config, payer, now);
    if (!admitted.ok) {
      await alert.record("sms", maskPhone(phone), "blocked");
      out.blocked++;
      await alert.onBlocked?.(admitted);
    } else {
      const secret = smsReportSecret(config);
      const deliveryId = await alert.record("sms", maskPhone(phone), "queued", secret.tokenHash);
      const { text, from } = alert.sms();
      await enqueueSms(db, { to: phone, text, deliveryId, from, reportUrl: secret.reportUrl }, now);
      out.sms++;
    }
  }

  if (alert.want.push) {
    const devices = await listSubscriptions(db, alert.userId);
    if (devices.length > 0) {
      const payload = JSON.stringify(alert.push());
      for (const device of devices) {
        const deliveryId = await alert.record("push", device.label, "queued");
        await enqueuePush(db, { subscriptionId: device.id, payload, deliveryId }, config.push.knownHosts, now);
        out.push++;
      }
    }
  }
  return out;
}
