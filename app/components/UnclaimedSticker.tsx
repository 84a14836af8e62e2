/**
 * /{id} of a printed sticker nobody has registered yet, or one staff voided (decision 036).
 * Part of the lean finder page (decision 020): plain markup and links, no script. The buyer
 * registers it; a finder learns it has no owner yet and gets the hand-in help of an
 * unpaid item's page.
 */
import { useTranslation } from "~/i18n/react";

export function UnclaimedSticker({ id, code, state }: { id: string; code: string; state: "unclaimed" | "voided" }) {
  const { t } = useTranslation();
  if (state === "voided") {
    return (
      <section className="py-4 item-page" aria-labelledby="item-title">
        <h1 id="item-title" className="h3">
          {t("items.unclaimed.voided")}
        </h1>
        <p>{t("items.unclaimed.voidedHelp")}</p>
        <p>
          <a href="/contact">{t("items.unclaimed.contact")}</a>
        </p>
      </section>
    );
  }
  return (
    <section className="py-4 item-page" aria-labelledby="item-title">
      <h1 id="item-title" className="h3">
        {t("items.unclaimed.title")}
      </h1>
      <h2 className="h5 mt-4">{t("items.unclaimed.buyerTitle")}</h2>
      <p>{t("items.unclaimed.buyerHelp")}</p>
      <p>
        <a href={`/claim?sticker=${encodeURIComponent(id)}`} className="btn btn-primary">
          {t("items.unclaimed.register")}
        </a>
      </p>
      <h2 className="h5 mt-4">{t("items.unclaimed.finderTitle")}</h2>
      <p>{t("items.unclaimed.finderHelp")}</p>
      <p>{t("scans.handIn.text", { code })}</p>
      <p>
        <a href={`/contact?item=${encodeURIComponent(code)}`} className="btn btn-outline-primary">
          {t("scans.handIn.contactLink")}
        </a>
      </p>
    </section>
  );
}
