import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";

/** The page where a reset link's token is exchanged for a new password. */
export function resetPasswordUrl(config: Config, token: string) {
  return `${config.baseUrl.origin}/resetpassword/new?token=${encodeURIComponent(token)}`;
}

/**
 * The reset mail, in the user's saved language, queued in the outbox. (Translations are
 * registered by entry.server at start; importing them here would break non-Vite tools.)
 */
export async function sendPasswordResetMail(
  db: DB,
  config: Config,
  input: { email: string; name: string; language?: string | null; token: string },
) {
  const lang: Lang = isLang(input.language) ? input.language : "en";
  const t = getT(lang);
  const url = resetPasswordUrl(config, input.token);
  await enqueueMail(db, {
    to: input.email,
    subject: t("auth.resetMail.subject"),
    text: [
      t("auth.resetMail.greeting", { name: input.name || input.email }),
      t("auth.resetMail.intro"),
      url,
      t("auth.resetMail.expiry"),
      t("auth.resetMail.ignore"),
    ].join("\n\n"),
  });
}
