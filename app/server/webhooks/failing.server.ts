/**
 * An endpoint that has failed for 3 days is disabled (decision 061), once, whichever
 * instance's delivery notices it: the conditional update decides, and only the instance
 * that disabled it mails the organisation's admins (each in their language, verified
 * addresses only, through the mail outbox). Its queued deliveries then fail; an admin
 * enables it again on the organisation's webhooks page.
 */
import { isLang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDate } from "~/lib/domain/dates";
import { firstName } from "~/lib/domain/first-name";
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { enqueueMail } from "../mail/mail.server";
import * as repo from "./webhooks.repository.server";

export async function disableFailingEndpoint(
  deps: Pick<Deps, "db" | "config">,
  endpoint: repo.EndpointRow,
  failingSince: number,
  /** The worker's clock: when the admins' mails are queued. */
  now: number,
): Promise<boolean> {
  const { db, config } = deps;
  const disabled = await db.transaction().execute(async (trx) => {
    if (!(await repo.setEnabled(trx, endpoint.id, false, "failing"))) return false;
    const organisation = (await repo.findOrganisationName(trx, endpoint.organisationId)) ?? "";
    const url = new URL(`/organisations/${endpoint.organisationId}/webhooks`, config.baseUrl).toString();
    for (const admin of await repo.listAdminsToMail(trx, endpoint.organisationId)) {
      const lang = isLang(admin.language) ? admin.language : "en";
      const t = getT(lang);
      await enqueueMail(
        trx,
        {
          to: admin.email,
          subject: t("webhooks.mail.disabled.subject", { organisation }),
          text: t("webhooks.mail.disabled.text", {
            name: firstName(admin.name, admin.email),
            organisation,
            endpoint: endpoint.url,
            since: formatDate(failingSince, lang),
            url,
          }),
        },
        now,
      );
    }
    return true;
  });
  if (disabled) logger.warn({ endpoint: endpoint.id }, "webhook endpoint failing for 3 days: disabled");
  return disabled;
}
