/**
 * The owners' digest while finder messages flood an item (decision
 * 029): instead of a mail per message, at most one mail per quarter hour per item, saying
 * how many messages came and linking to /messages. A burst starts when the item passes
 * its hourly threshold (relay.service.server.ts) and lasts while messages keep coming
 * within a quarter hour of the last digest. Counting and claiming are single statements
 * (relay.repository.server.ts), so concurrent messages and several instances' jobs send
 * each digest once.
 */
import { getT } from "~/i18n/i18n";
import type { Deps } from "../service-deps.server";
import { listItemRecipients } from "../access/item-access.repository.server";
import { findItemById } from "../access/items.repository.server";
import { enqueueMail } from "../mail/mail.server";
import * as repo from "./relay.repository.server";

/** At most one digest per item in this time. */
export const DIGEST_INTERVAL_MS = 15 * 60_000;
/** Items handled per run of the digest job; the rest wait for the next minute. */
const DUE_PER_RUN = 200;

/**
 * Routes one stored finder message: into the item's digest when the item is flooded or a
 * digest went out less than a quarter hour ago (the burst goes on), and sends the digest
 * when one is due. False: not part of a burst, the caller mails the owners as usual.
 */
export async function digestFinderMessage(
  deps: Pick<Deps, "config" | "db">,
  itemId: string,
  flooded: boolean,
  now: number,
): Promise<boolean> {
  if (flooded) await repo.addToDigest(deps.db, itemId);
  else if (!(await repo.addToRecentDigest(deps.db, itemId, now - DIGEST_INTERVAL_MS))) return false;
  await sendDigestIfDue(deps, itemId, now);
  return true;
}

/**
 * Claims and mails the item's digest if one is due, in one transaction (a crash between
 * the claim and the mail loses neither). Returns whether it was sent.
 */
export async function sendDigestIfDue(deps: Pick<Deps, "config" | "db">, itemId: string, now: number) {
  // Most messages of a burst find the digest not due: a read spares them a write
  // transaction. The conditional claim below still decides.
  if (!(await repo.isDigestDue(deps.db, itemId, now - DIGEST_INTERVAL_MS))) return false;
  return deps.db.transaction().execute(async (trx) => {
    const count = await repo.claimDigest(trx, itemId, now, now - DIGEST_INTERVAL_MS);
    if (count === null) return false;
    const item = await findItemById(trx, itemId);
    if (!item) return true;
    const url = new URL("/messages", deps.config.baseUrl).toString();
    const item1 = item.name.replace(/\s+/g, " ").trim();
    for (const userId of await listItemRecipients(trx, itemId)) {
      const owner = await repo.findOwnerForMail(trx, userId);
      // Only a proven address gets relay mail (decision 017), as for single messages.
      if (!owner?.emailVerified) continue;
      const t = getT(owner.language);
      await enqueueMail(
        trx,
        {
          to: owner.email,
          subject: t("relay.mail.digest.subject", { count, item: item1 }),
          text: t("relay.mail.digest.text", { count, item: item.name, url, minutes: DIGEST_INTERVAL_MS / 60_000 }),
        },
        now,
      );
    }
    return true;
  });
}

/**
 * The digest job (every minute, every instance): mails the digests that came due since
 * (messages that arrived within a quarter hour of the last one), then forgets the bursts
 * that are over. Returns how many digests it sent.
 */
export async function sendDueDigests(deps: Pick<Deps, "config" | "db" | "clock">): Promise<number> {
  const now = deps.clock();
  let sent = 0;
  for (const itemId of await repo.listDueDigests(deps.db, now - DIGEST_INTERVAL_MS, DUE_PER_RUN)) {
    if (await sendDigestIfDue(deps, itemId, now)) sent++;
  }
  await repo.deleteFinishedDigests(deps.db, now - DIGEST_INTERVAL_MS);
  return sent;
}
