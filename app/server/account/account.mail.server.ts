import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { firstName } from "~/lib/domain/first-name";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";

/** After deleting an account: what is gone and what the law keeps, in the user's language. */
export async function sendAccountDeletedMail(
  db: DB,
  config: Config,
  /** `now`: the caller's `deps.clock()`, when the mail is queued. */
  input: { email: string; name: string; language?: string | null; now: number },
) {
  const lang: Lang = isLang(input.language) ? input.language : "en";
  const t = getT(lang);
  await enqueueMail(
    db,
    {
      to: input.email,
      subject: t("account.mail.deleted.subject"),
      text: [
        t("account.mail.deleted.greeting", { name: firstName(input.name, input.email) }),
        t("account.mail.deleted.intro"),
        t("account.mail.deleted.kept"),
        t("account.mail.deleted.questions", { email: config.supportEmail }),
      ].join("\n\n"),
    },
    input.now,
  );
}
