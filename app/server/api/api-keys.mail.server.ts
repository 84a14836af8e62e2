/**
 * A new API key is told to the organisation's other admins (decision 054): who made it,
 * its name and scope, and where to revoke it. Inside the creation's transaction, so a key
 * that is not made tells nobody. To each admin's verified address only (decision 012), in
 * the admin's language. Never the key itself.
 */
import { isLang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import type { Config } from "../config.server";
import { readBool, type DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";

export async function tellAdminsOfNewKey(
  db: DB,
  config: Pick<Config, "baseUrl">,
  input: {
    organisationId: string;
    organisationName: string;
    creator: { id: string; name: string };
    key: { name: string; scope: "read" | "read-write" };
    now: number;
  },
): Promise<number> {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email", "u.emailVerified", "u.language"])
    .where("m.organisationId", "=", input.organisationId)
    .where("m.role", "=", "admin")
    .where("m.userId", "!=", input.creator.id)
    .orderBy("u.id")
    .execute();
  const admins = rows.filter((r) => readBool(r.emailVerified));
  for (const admin of admins) {
    const lang = isLang(admin.language) ? admin.language : "en";
    const t = getT(lang);
    await enqueueMail(
      db,
      {
        to: admin.email,
        subject: t("api.mail.keyCreated.subject", { organisation: input.organisationName }),
        text: [
          t("api.mail.keyCreated.greeting", { name: firstName(admin.name, admin.email) }),
          t("api.mail.keyCreated.body", {
            creator: input.creator.name,
            organisation: input.organisationName,
            key: input.key.name,
            scope: t(`api.keys.scopes.${input.key.scope === "read" ? "read" : "readWrite"}`),
            date: formatDate(input.now, lang),
          }),
          t("api.mail.keyCreated.link", {
            url: new URL(`/organisations/${input.organisationId}/api`, config.baseUrl).toString(),
          }),
          t("api.mail.keyCreated.signature"),
        ].join("\n\n"),
      },
      input.now,
    );
  }
  return admins.length;
}
