/**
 * The owner's printable QR code on the item page (decision 052): the short {origin}/{id}
 * printed on the stickers, the URL written out and the typeable code under it, as on a
 * sticker, with the SVG and PNG to download. Plain markup and links: it works without the
 * page's script, and the browser prints it like any page.
 */
import { useTranslation } from "~/i18n/react";

export function ItemQr({ id, code, origin }: { id: string; code: string; origin: string }) {
  const { t } = useTranslation();
  const url = `${origin}/${id}`;
  const printed = url.replace(/^https?:\/\//, "");
  return (
    <section className="card mb-4 item-qr-section" aria-labelledby="item-qr-title">
      <div className="card-body">
        <h2 id="item-qr-title" className="h4">
          {t("items.qr.title")}
        </h2>
        <p className="text-body-secondary small">{t("items.qr.lead")}</p>
        <figure className="item-qr-label text-center mx-auto mb-3">
          <img
            src={`/product/${id}/qr.svg`}
            width={192}
            height={192}
            alt={t("items.qr.alt", { url })}
            className="item-qr-image d-block mx-auto"
            data-url={url}
          />
          <figcaption>
            <span className="d-block text-break item-qr-url">{printed}</span>
            <span className="d-block fw-bold sticker-code item-qr-code">{code}</span>
          </figcaption>
        </figure>
        <div className="d-flex flex-wrap gap-2 d-print-none">
          <a className="btn btn-outline-primary" href={`/product/${id}/qr.svg?download`} download>
            {t("items.qr.svg")}
          </a>
          <a className="btn btn-outline-primary" href={`/product/${id}/qr.png?download`} download>
            {t("items.qr.png")}
          </a>
          <a className="btn btn-outline-secondary" href={`/product/${id}/qr.png`} target="_blank" rel="noopener">
            {t("items.qr.print")}
          </a>
        </div>
      </div>
    </section>
  );
}
