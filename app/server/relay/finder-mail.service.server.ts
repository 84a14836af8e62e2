/**
 * Mail to a finder's typed address (decision 058). Anyone can type anyone's address into
 * the finder form, so the address is a third party's until it proves otherwise:
 * - the first mail is a consent request (admitConsentRequest: suppression list, limits
 *   per recipient, the never link) and carries only Hittad's words and the private link,
 *   with a confirmation code — no text the finder or the owner typed, no item name;
 * - opening that link with its code records the address as confirmed on the conversation
 *   (a link only that mailbox received; the finder page's own redirect carries no code);
 * - only then are the owner's replies mailed, each passing the suppression list and a
 *   daily limit per mailbox (admitRelayMail) and carrying the never link; the subject is
 *   Hittad's, never the item's name.
 * A refused mail is not sent and nothing else fails: the finder reads at the private link.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { emailOf } from "~/lib/domain/relay";
import type { Config } from "../config.server";
import { enqueueMail } from "../mail/mail.server";
import { admitConsentRequest, admitRelayMail, RecipientsError } from "../recipients/recipients.service.server";
import type { Deps } from "../service-deps.server";
import * as repo from "./relay.repository.server";

type FinderSide = Pick<repo.Conversation, "id" | "finderContact" | "finderLang" | "finderToken">;

/** The private link, as shown on the page and in mails. */
export function finderUrl(base: URL, token: string) {
  return new URL(`/m/${token}`, base).toString();
}

/** The confirmation code of the first mail's link: an HMAC (AUTH_SECRET) of the conversation and the address. */
function confirmCode(config: Pick<Config, "authSecret">, conversation: FinderSide): string {
  const address = (emailOf(conversation.finderContact) ?? "").toLowerCase();
  return createHmac("sha256", config.authSecret)
    .update(`finder-mail\n${conversation.id}\n${address}`)
    .digest("base64url")
    .slice(0, 22);
}

/** Runs `send` in a transaction that a refusal of the recipients rules rolls back; answers whether it was sent. */
async function sendUnlessRefused(db: Deps["db"], send: (trx: Deps["db"]) => Promise<void>): Promise<boolean> {
  try {
    await db.transaction().execute(send);
    return true;
  } catch (err) {
    if (err instanceof RecipientsError) return false;
    throw err;
  }
}

/** The first mail: the private link with its confirmation code, and nothing anyone typed. */
export async function mailFinderLink(
  deps: Pick<Deps, "config" | "db">,
  conversation: FinderSide,
  now: number,
): Promise<boolean> {
  const to = emailOf(conversation.finderContact);
  if (!to) return false;
  const { config } = deps;
  const t = getT(conversation.finderLang as Lang);
  const url = `${finderUrl(config.baseUrl, conversation.finderToken)}?c=${confirmCode(config, conversation)}`;
  return sendUnlessRefused(deps.db, async (trx) => {
    // The finder is no account: the request is counted per recipient only (never an SMS).
    const request = { channel: "email" as const, to, accountKey: `finder:${conversation.id}`, pool: "finder" as const };
    const { neverUrl } = await admitConsentRequest({ db: trx, config }, request, now);
    await enqueueMail(
      trx,
      {
        to,
        subject: t("relay.mail.finder.sentSubject"),
        text: t("relay.mail.finder.sentText", { url, never: neverUrl }),
      },
      now,
    );
  });
}

/** Whether `code` is the first mail's code for this conversation's address (constant time). */
export function finderCodeMatches(config: Config, conversation: FinderSide, code: string | null): boolean {
  if (!code || emailOf(conversation.finderContact) === null) return false;
  const expected = Buffer.from(confirmCode(config, conversation));
  const given = Buffer.from(code);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The mailbox said yes: the button on the page the first mail's link opens posts the code,
 * and the address is confirmed (once). Opening the link alone confirms nothing, so a mail
 * scanner that follows links confirms nothing either (as a trusted contact's invitation).
 * Answers whether the address is confirmed now.
 */
export async function confirmFinderAddress(
  deps: Pick<Deps, "config" | "db">,
  conversation: FinderSide & { finderConfirmedAt: number | null },
  code: string | null,
  now: number,
): Promise<boolean> {
  if (conversation.finderConfirmedAt !== null) return true;
  if (!finderCodeMatches(deps.config, conversation, code)) return false;
  await repo.markFinderConfirmed(deps.db, conversation.id, now);
  return true;
}

/** The owner's side answered: mailed only to an address that confirmed itself (see the module's comment). */
export async function mailFinderReply(
  deps: Pick<Deps, "config" | "db">,
  conversation: FinderSide & { finderConfirmedAt: number | null },
  itemName: string,
  reply: string,
  now: number,
): Promise<boolean> {
  const to = emailOf(conversation.finderContact);
  if (!to || conversation.finderConfirmedAt === null) return false;
  const t = getT(conversation.finderLang as Lang);
  return sendUnlessRefused(deps.db, async (trx) => {
    const { neverUrl } = await admitRelayMail({ db: trx, config: deps.config }, to, now);
    await enqueueMail(
      trx,
      {
        to,
        subject: t("relay.mail.finder.replySubject"),
        text: t("relay.mail.finder.replyText", {
          item: itemName,
          reply: quote(reply),
          url: finderUrl(deps.config.baseUrl, conversation.finderToken),
          never: neverUrl,
        }),
      },
      now,
    );
  });
}

function quote(text: string) {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}
