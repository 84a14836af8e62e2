/**
 * THE alert fan-out (docs/decisions/033-reach-the-owner.md): one event (a
 * finder's message, a reply, a lost-mode scan, a scan, a confirmed return) becomes one
 * delivery per recipient × channel the recipient chose in their alert settings, each
 * recorded (alert_deliveries) and queued in the one outbox (mail/mail.server.ts).
 *
 * Called inside the transaction that stores the event, so the event and its deliveries
 * commit together: a crash (kill -9) after the commit loses no alert, one before it loses
 * both. The caller wakes the outbox after the commit (wakeOutbox). Each channel's row is
 * sent on its own, so a channel that fails never holds up another.
 *
 * Recipients: everyone who manages the item (decision 026). Email only to a verified
 * account address (decision 012); SMS only to a verified number, through the cost guard
 * and the day's budget (sms/sms-guard.server.ts); push to each device the recipient
 * subscribed (decision 040: the same outbox) — those two by `alertOwnerBySmsAndPush`
 * (owner-alert.server.ts), as the payer's renewal alert. A trusted contact only on the addresses and
 * numbers that confirmed themselves and are not on the suppression list (decision 046).
 */
import { createHash } from "node:crypto";
import type { AlertEvent } from "~/lib/domain/alerts";
import { maskEmail, maskPhone } from "~/lib/domain/phone";
import type { Deps } from "../service-deps.server";
import type { DB } from "../db/db.server";
import { listItemRecipients } from "../access/item-access.repository.server";
import { enqueueMail, enqueueSms } from "../mail/mail.server";
import {
  listActiveContactsForItem,
  rememberLink,
  type ContactRow,
} from "../trusted-contacts/trusted-contacts.repository.server";
import { findItemById } from "../access/items.repository.server";
import { findOrganisation } from "../organisations/organisations.repository.server";
import { shortReplyCode, shortReplyUrl, shortStopCode, shortStopUrl } from "../trusted-contacts/contact-links.server";
import { mayMessage } from "../recipients/recipients.service.server";
import { admitSms } from "../sms/sms-guard.server";
import * as repo from "./alerts.repository.server";
import type { AlertFacts } from "./alert-facts.server";
import { alertOwnerBySmsAndPush, deliveryRecorder, smsReportSecret, type RecordDelivery } from "./owner-alert.server";
import {
  renderContactEmail,
  renderContactSms,
  renderEmail,
  renderGuardNotice,
  renderPush,
  renderSms,
  type ContactFacts,
  type ContactSmsLinks,
} from "./render.server";

export type { AlertFacts };

export interface FanOutResult {
  /** Deliveries queued per channel. */
  email: number;
  sms: number;
  push: number;
  /** SMS the cost guard stopped. */
  blocked: number;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * The short stop link (and reply link, for a conversation) of a contact's SMS, remembered
 * by the SHA-256 of their codes so the pages can find them (decision 040).
 */
async function rememberShortLinks(
  db: DB,
  config: Deps["config"],
  contactId: string,
  conversationId: string | null,
  now: number,
): Promise<ContactSmsLinks> {
  const stop = shortStopCode(config, contactId);
  await rememberLink(db, { codeHash: sha256(stop), kind: "stop", contactId, conversationId: null, createdAt: now });
  if (!conversationId) return { reply: null, stop: shortStopUrl(config, contactId) };
  const reply = shortReplyCode(config, conversationId, contactId);
  await rememberLink(db, { codeHash: sha256(reply), kind: "reply", contactId, conversationId, createdAt: now });
  return { reply: shortReplyUrl(config, conversationId, contactId), stop: shortStopUrl(config, contactId) };
}

function conversationOf(facts: AlertFacts): string | null {
  return "conversationId" in facts ? facts.conversationId : null;
}

/**
 * Queues the event's deliveries. `db` is the caller's transaction. Returns what it
 * queued; the caller calls wakeOutbox() after its commit.
 */
export async function fanOutAlert(
  deps: Pick<Deps, "db" | "config">,
  facts: AlertFacts,
  now: number,
): Promise<FanOutResult> {
  const { db } = deps;
  const { config } = deps;
  const out: FanOutResult = { email: 0, sms: 0, push: 0, blocked: 0 };
  const event: AlertEvent = facts.event;
  for (const userId of await listItemRecipients(db, facts.itemId)) {
    const user = await repo.findRecipientUser(db, userId);
    if (!user) continue;
    const want = (await repo.readSettings(db, userId))[event];
    const delivery = deliveryRecorder(db, {
      userId,
      itemId: facts.itemId,
      conversationId: conversationOf(facts),
      event,
      now,
    });

    if (want.email && user.emailVerified) {
      const deliveryId = await delivery("email", maskEmail(user.email), "queued");
      const mail = renderEmail(config, user, facts, now);
      await enqueueMail(db, { to: user.email, ...mail, deliveryId }, now);
      out.email++;
    }

    const own = await alertOwnerBySmsAndPush(
      deps,
      {
        userId,
        want,
        itemId: facts.itemId,
        record: delivery,
        sms: () => ({
          text: renderSms(config, user.language, facts).text,
          // Decision 055: an alert the owner may answer by SMS comes from SMS_NUMBER.
          from: facts.event === "finderMessage" && facts.smsRef ? config.sms.number : undefined,
        }),
        push: () => renderPush(config, user.language, facts),
        // The owner hears of their own limits once per window, by email (never by another
        // SMS); Hittad's day budget is the operator's to watch (/metrics).
        onBlocked: async (admitted) => {
          if (
            admitted.why !== "budget" &&
            user.emailVerified &&
            (await repo.claimQuotaNotice(db, admitted.key, admitted.windowStart, now))
          ) {
            await enqueueMail(db, { to: user.email, ...renderGuardNotice(config, user, facts, admitted.why) }, now);
          }
        },
      },
      now,
    );
    out.sms += own.sms;
    out.push += own.push;
    out.blocked += own.blocked;

    // Trusted contacts (decision 033): finder messages and lost-mode scans, to every
    // confirmed contact who has not stopped and whom the owner did not leave out for this
    // item, by email and/or SMS as they gave. Their SMS count against the owner's guard.
    if (facts.event === "finderMessage" || facts.event === "lostScan") {
      const contacts = await listActiveContactsForItem(db, { userId }, facts.itemId);
      const sink = { record: delivery, owner: user.name, accountKey: `account:${userId}` };
      await deliverToContacts(db, config, facts, contacts, sink, out, now);
    }
  }
  // The desk's own contacts (decision 040): for an organisation's item assigned to nobody,
  // once (not per admin); their SMS count against the organisation; recorded as 'desk' so
  // every admin sees them in the conversation.
  if (facts.event === "finderMessage" || facts.event === "lostScan") {
    const item = await findItemById(db, facts.itemId);
    if (item?.organisationId && item.assignedTo === null) {
      const contacts = await listActiveContactsForItem(db, { organisationId: item.organisationId }, facts.itemId);
      const org = contacts.length > 0 ? await findOrganisation(db, item.organisationId) : undefined;
      for (const c of org ? contacts : []) {
        const record = deliveryRecorder(db, {
          userId: c.userId,
          itemId: facts.itemId,
          conversationId: conversationOf(facts),
          event,
          now,
          recipientKind: "desk",
        });
        const sink = { record, owner: org!.name, accountKey: `org:${item.organisationId}` };
        await deliverToContacts(db, config, facts, [c], sink, out, now);
      }
    }
  }
  return out;
}

/**
 * Queues a finder message or lost-mode alert to each contact: by mail if their address
 * confirmed itself, by SMS if their number did (decision 046: an address confirming says
 * nothing about a number given beside it), neither to one on the suppression list.
 */
async function deliverToContacts(
  db: DB,
  config: Deps["config"],
  facts: ContactFacts,
  contacts: ContactRow[],
  sink: { record: RecordDelivery; owner: string; accountKey: string },
  out: FanOutResult,
  now: number,
): Promise<void> {
  for (const c of contacts) {
    const contact = { id: c.id, name: c.name, language: c.language === "sv" ? ("sv" as const) : ("en" as const) };
    if (c.email && c.emailConfirmedAt !== null && (await mayMessage({ db }, "email", c.email))) {
      const deliveryId = await sink.record("email", `${c.name} (${maskEmail(c.email)})`, "queued", undefined, c.id);
      await enqueueMail(
        db,
        { to: c.email, ...renderContactEmail(config, contact, sink.owner, facts), deliveryId },
        now,
      );
      out.email++;
    }
    if (c.phone && c.phoneConfirmedAt !== null && (await mayMessage({ db }, "sms", c.phone))) {
      const label = `${c.name} (${maskPhone(c.phone)})`;
      const admitted = await admitSms(db, config, { itemId: facts.itemId, accountKey: sink.accountKey }, now);
      if (!admitted.ok) {
        await sink.record("sms", label, "blocked", undefined, c.id);
        out.blocked++;
      } else {
        const secret = smsReportSecret(config);
        const deliveryId = await sink.record("sms", label, "queued", secret.tokenHash, c.id);
        const links = await rememberShortLinks(db, config, c.id, conversationOf(facts), now);
        await enqueueSms(
          db,
          {
            to: c.phone,
            text: renderContactSms(contact, sink.owner, facts, links).text,
            deliveryId,
            reportUrl: secret.reportUrl,
          },
          now,
        );
        out.sms++;
      }
    }
  }
}
