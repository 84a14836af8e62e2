import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { firstName } from "~/lib/domain/first-name";
import { localReturnPath } from "~/lib/domain/redirect-target";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";
import { admitConsentRequest, requireVerifiedSender } from "../recipients/recipients.service.server";

/** The page where a reset link's token is exchanged for a new password. */
export function resetPasswordUrl(config: Config, token: string) {
  return `${config.baseUrl.origin}/resetpassword/new?token=${encodeURIComponent(token)}`;
}

/**
 * The page that confirms an email address from the verification mail; `next`, a local
 * path checked by the caller (returnPathOf), is where the page then goes (an invite).
 */
export function verifyEmailUrl(config: Config, token: string, next: string | null = null) {
  const back = next ? `&next=${encodeURIComponent(next)}` : "";
  return `${config.baseUrl.origin}/user/verify-email?token=${encodeURIComponent(token)}${back}`;
}

/**
 * The page to return to after verifying (decision 038), from better-auth's link
 * (its `callbackURL`, which registerWithPassword sets): a local path under the app only
 * (safeRedirectTarget), never "/" nor the verify page itself; null otherwise.
 */
export function returnPathOf(authUrl: string | undefined): string | null {
  if (!authUrl) return null;
  let raw: string | null;
  try {
    raw = new URL(authUrl).searchParams.get("callbackURL");
  } catch {
    return null;
  }
  return localReturnPath(raw);
}

/** The verification mail sent on registration (and on request), in the user's language. */
export async function sendVerificationMail(
  db: DB,
  config: Config,
  input: { email: string; name: string; language?: string | null; token: string; next?: string | null; now: number },
) {
  const lang: Lang = isLang(input.language) ? input.language : "en";
  const t = getT(lang);
  await enqueueMail(
    db,
    {
      to: input.email,
      subject: t("auth.verifyMail.subject"),
      text: [
        t("auth.verifyMail.greeting", { name: firstName(input.name, input.email) }),
        t("auth.verifyMail.intro"),
        verifyEmailUrl(config, input.token, input.next ?? null),
        t("auth.verifyMail.expiry"),
        t("auth.verifyMail.ignore"),
      ].join("\n\n"),
    },
    input.now,
  );
}

/**
 * The reset mail, in the user's saved language, queued in the outbox. (Translations are
 * registered by entry.server at start; importing them here would break non-Vite tools.)
 */
export async function sendPasswordResetMail(
  db: DB,
  config: Config,
  input: { email: string; name: string; language?: string | null; token: string; now: number },
) {
  const lang: Lang = isLang(input.language) ? input.language : "en";
  const t = getT(lang);
  const url = resetPasswordUrl(config, input.token);
  await enqueueMail(
    db,
    {
      to: input.email,
      subject: t("auth.resetMail.subject"),
      text: [
        t("auth.resetMail.greeting", { name: firstName(input.name, input.email) }),
        t("auth.resetMail.intro"),
        url,
        t("auth.resetMail.expiry"),
        t("auth.resetMail.ignore"),
      ].join("\n\n"),
    },
    input.now,
  );
}

/**
 * An email change (decision 017): the confirmation link goes to the new address; the old
 * address is told, with what to do if it was not the owner. Both in the user's language.
 * The new address is a third party's until it confirms (decision 058): its mail is a
 * consent request — the asker's email verified, the suppression list and the limits per
 * recipient (admitConsentRequest, in the transaction that queues it: a refusal queues
 * nothing), the never link — and greets by the first name only (firstName), as every
 * consent request names its asker.
 */
export async function sendEmailChangeMails(
  db: DB,
  config: Config,
  input: {
    userId: string;
    oldEmail: string;
    newEmail: string;
    name: string;
    language?: string | null;
    token: string;
    /** The caller's clock: when the mails are queued and the consent request counted. */
    now: number;
  },
) {
  const lang: Lang = isLang(input.language) ? input.language : "en";
  const t = getT(lang);
  await db.transaction().execute(async (trx) => {
    await requireVerifiedSender({ db: trx }, input.userId);
    const { neverUrl } = await admitConsentRequest(
      { db: trx, config },
      { channel: "email", to: input.newEmail, accountKey: `account:${input.userId}` },
      input.now,
    );
    await enqueueMail(
      trx,
      {
        to: input.newEmail,
        subject: t("account.mail.changeEmail.subject"),
        text: [
          t("account.mail.changeEmail.greeting", { name: firstName(input.name, input.newEmail) }),
          t("account.mail.changeEmail.intro", { email: input.newEmail }),
          verifyEmailUrl(config, input.token),
          t("account.mail.changeEmail.expiry"),
          t("account.mail.changeEmail.ignore"),
          t("account.mail.changeEmail.never", { url: neverUrl }),
        ].join("\n\n"),
      },
      input.now,
    );
    await enqueueMail(
      trx,
      {
        to: input.oldEmail,
        subject: t("account.mail.emailNotice.subject"),
        text: [
          t("account.mail.emailNotice.greeting", { name: firstName(input.name, input.oldEmail) }),
          t("account.mail.emailNotice.intro", { email: input.newEmail }),
          t("account.mail.emailNotice.notYou", { url: `${config.baseUrl.origin}/resetpassword` }),
        ].join("\n\n"),
      },
      input.now,
    );
  });
}
