/**
 * "Can't meet the owner?" on the finder page (decision 019): what a finder may do
 * instead, facts only, after the Swedish Police's page on lost property. A native
 * <details>, so it opens and closes without JavaScript and adds no script to the page.
 */
import { useTranslation } from "~/i18n/react";
import { POLICE_HITTEGODS_URL } from "~/lib/domain/fee";

export function CantMeetOwner({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <details className="cant-meet mt-4">
      <summary className="fw-bold">{t("items.page.cantMeet.summary")}</summary>
      <div className="pt-2">
        <p>{t("items.page.cantMeet.police")}</p>
        <p>{t("items.page.cantMeet.keys")}</p>
        <p>
          {t("items.page.cantMeet.code")} <strong className="font-monospace sticker-code">{code}</strong>
        </p>
        <p className="small mb-0">
          {t("items.page.cantMeet.sourceLead")}{" "}
          <a href={POLICE_HITTEGODS_URL} rel="noopener noreferrer">
            {t("items.page.cantMeet.source")}
          </a>
        </p>
      </div>
    </details>
  );
}
