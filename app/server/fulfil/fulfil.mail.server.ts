/**
 * "Your stickers are on their way": queued in the transaction that marks a shipment
 * shipped, in the owner's language (their saved one, else the order's). Like the receipt
 * (decision 012) it goes only to the account's verified email.
 */
import { getT } from "~/i18n/i18n";
import { firstName } from "~/lib/domain/first-name";
import { addressLines } from "~/lib/forms/order-form";
import { formatDate } from "~/lib/domain/dates";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { CARRIER, trackingUrl } from "~/lib/domain/tracking";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { logger } from "../logger.server";
import { enqueueMail } from "../mail/mail.server";
import type { ShipmentRow, StickerItem } from "./fulfil.repository.server";

export async function enqueueShippedMail(
  db: DB,
  config: Config,
  shipment: ShipmentRow & { shippedAt: number; items: StickerItem[] },
  now: number,
): Promise<void> {
  if (!shipment.ownerEmailVerified) {
    logger.info({ shipment: shipment.id }, "no shipped mail: the account's email is not verified");
    return;
  }
  const t = getT(shipment.lang);
  const origin = config.baseUrl.origin;
  const lines = [
    t("fulfil.mail.greeting", { name: firstName(shipment.ownerName, shipment.ownerEmail) }),
    t(shipment.kind === "replacement" ? "fulfil.mail.introReplacement" : "fulfil.mail.intro", {
      date: formatDate(shipment.shippedAt, shipment.lang),
    }),
    // What is in the envelope (decision 032): each item's name and sticker code.
    shipment.items.length > 0
      ? [
          t("fulfil.mail.items", { count: shipment.items.length }),
          ...shipment.items.map((i) => `- ${i.name} (${formatStickerCode(i.code)})`),
        ].join("\n")
      : "",
    shipment.trackingNumber
      ? [
          t("fulfil.mail.tracking", { number: shipment.trackingNumber }),
          t("fulfil.mail.trackLink", { carrier: CARRIER, url: trackingUrl(shipment.trackingNumber, shipment.lang) }),
        ].join("\n")
      : "",
    shipment.address
      ? `${t("fulfil.mail.address")}\n${addressLines(shipment.address, { lang: shipment.lang }).join("\n")}`
      : "",
    t("fulfil.mail.howTo", { url: `${origin}/dashboard` }),
    t("fulfil.mail.signature"),
  ].filter(Boolean);
  await enqueueMail(db, { to: shipment.ownerEmail, subject: t("fulfil.mail.subject"), text: lines.join("\n\n") }, now);
}
