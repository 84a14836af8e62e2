/** The owner's sticker shipments on the dashboard (decision 015): ordered, or shipped on … with tracking. */
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import { CARRIER, trackingUrl } from "~/lib/domain/tracking";
import { useLang } from "~/lib/hooks/use-lang";

export interface StickerShipmentData {
  id: string;
  kind: "order" | "replacement";
  status: "pending" | "shipped";
  createdAt: number;
  shippedAt: number | null;
  trackingNumber: string | null;
  items: Array<{ id: string; name: string }>;
}

export function StickerShipments({ shipments }: { shipments: StickerShipmentData[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (shipments.length === 0) return null;
  return (
    <section className="mt-4" aria-labelledby="stickers-title">
      <h2 id="stickers-title" className="h4">
        {t("dashboard.shipments.title")}
      </h2>
      <ul className="list-group sticker-shipments">
        {shipments.map((s) => (
          <li key={s.id} className="list-group-item">
            <div className="d-flex flex-wrap gap-2 align-items-center">
              <span className={`badge ${s.status === "shipped" ? "text-bg-success" : "text-bg-secondary"}`}>
                {s.status === "shipped" && s.shippedAt !== null
                  ? t("dashboard.shipments.shipped", { date: formatDate(s.shippedAt, lang) })
                  : t("dashboard.shipments.ordered", { date: formatDate(s.createdAt, lang) })}
              </span>
              {s.kind === "replacement" ? <span className="small">{t("dashboard.shipments.replacement")}</span> : null}
            </div>
            <p className="mb-0 mt-1 text-break">{s.items.map((i) => i.name).join(", ")}</p>
            {s.trackingNumber ? (
              <p className="mb-0 small">
                {t("dashboard.shipments.tracking", { number: s.trackingNumber })}{" "}
                {/* The carrier's tracking page (decision 032). */}
                <a href={trackingUrl(s.trackingNumber, lang)} target="_blank" rel="noopener noreferrer">
                  {t("dashboard.shipments.track", { carrier: CARRIER })}
                </a>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
