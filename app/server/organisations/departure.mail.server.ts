/**
 * An organisation's admins are told when a member deletes their account (decision 051):
 * who left, that their items stay with the organisation and under whose name now. Inside
 * the deletion's transaction, so a deletion that rolls back tells nobody. To each admin's
 * verified address only (decision 012), in the admin's language.
 */
import { isLang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import type { Config } from "../config.server";
import { readBool, type DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";

/** The admins of an organisation other than `except`, with what their mail needs. */
async function listAdminsToTell(db: DB, organisationId: string, except: string) {
  const rows = await db
    .selectFrom("organisation_members as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email", "u.emailVerified", "u.language"])
    .where("m.organisationId", "=", organisationId)
    .where("m.role", "=", "admin")
    .where("m.userId", "!=", except)
    .orderBy("u.id")
    .execute();
  return rows.filter((r) => readBool(r.emailVerified));
}

export async function tellAdminsOfDeparture(
  db: DB,
  config: Config,
  input: {
    organisationId: string;
    organisationName: string;
    member: { id: string; name: string; email: string };
    /** Who the member's items of the organisation now stand under. */
    heirName: string;
    now: number;
  },
): Promise<number> {
  const admins = await listAdminsToTell(db, input.organisationId, input.member.id);
  for (const admin of admins) {
    const lang = isLang(admin.language) ? admin.language : "en";
    const t = getT(lang);
    await enqueueMail(
      db,
      {
        to: admin.email,
        subject: t("organisations.mail.departure.subject", { organisation: input.organisationName }),
        text: [
          t("organisations.mail.departure.greeting", { name: firstName(admin.name, admin.email) }),
          t("organisations.mail.departure.body", {
            member: input.member.name || input.member.email,
            email: input.member.email,
            organisation: input.organisationName,
            date: formatDate(input.now, lang),
          }),
          t("organisations.mail.departure.items", { heir: input.heirName }),
          t("organisations.mail.departure.link", {
            url: new URL(`/organisations/${input.organisationId}`, config.baseUrl).toString(),
          }),
          t("organisations.mail.departure.signature"),
        ].join("\n\n"),
      },
      input.now,
    );
  }
  return admins.length;
}
