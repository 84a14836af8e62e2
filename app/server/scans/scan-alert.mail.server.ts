/**
 * The owner's mails about scans (decision 014), in the owner's
 * language, queued in the mail outbox in the same transaction as the throttle's claim.
 * Only to a verified account email (as receipts, decision 012): an address typed by
 * someone else must not receive mails it never asked for.
 */
import { isLang, type Lang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { formatDateTime } from "~/lib/domain/dates";
import type { DeviceClass } from "~/lib/domain/scans";
import type { Config } from "../config.server";
import type { DB } from "../db/db.server";
import { enqueueMail } from "../mail/mail.server";

export interface ScanMailFacts {
  to: string;
  ownerName: string;
  ownerLang: string | null;
  itemId: string;
  itemName: string;
  at: number;
  scanLang: Lang;
  device: DeviceClass;
}

/** The item's name on a subject line: one line, whatever was typed (control characters become spaces). */
function oneLine(text: string) {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : c;
    })
    .join("")
    .replace(/ {2,}/g, " ")
    .trim();
}

function firstName(name: string) {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** The scan alert's subject and text (the alert fan-out queues it: alerts/render.server.ts). */
export function scanAlertMail(
  config: Pick<Config, "baseUrl">,
  facts: ScanMailFacts & { kind: "scan" | "lost" },
): { subject: string; text: string } {
  const lang: Lang = isLang(facts.ownerLang) ? facts.ownerLang : "en";
  const t = getT(lang);
  const origin = config.baseUrl.origin;
  const name = oneLine(facts.itemName);
  const lines = [
    t("scans.mail.greeting", { name: firstName(facts.ownerName) || facts.to }),
    t(facts.kind === "lost" ? "scans.mail.lostIntro" : "scans.mail.intro", { name }),
    t("scans.mail.facts", {
      time: formatDateTime(facts.at, lang),
      lang: t(`scans.langs.${facts.scanLang}`),
      device: t(`scans.devices.${facts.device}`),
    }),
    t("scans.mail.view", { url: `${origin}/product/${facts.itemId}` }),
    t(facts.kind === "lost" ? "scans.mail.lostThrottle" : "scans.mail.throttle"),
    t("scans.mail.turnOff", { url: `${origin}/dashboard` }),
    t("scans.mail.signature"),
  ];
  return {
    subject: t(facts.kind === "lost" ? "scans.mail.lostSubject" : "scans.mail.subject", { name }),
    text: lines.join("\n\n"),
  };
}

export async function enqueueInactiveScanMail(
  db: DB,
  config: Config,
  facts: ScanMailFacts,
  now: number,
): Promise<void> {
  const lang: Lang = isLang(facts.ownerLang) ? facts.ownerLang : "en";
  const t = getT(lang);
  const origin = config.baseUrl.origin;
  const name = oneLine(facts.itemName);
  const lines = [
    t("scans.mail.greeting", { name: firstName(facts.ownerName) || facts.to }),
    t("scans.inactiveMail.intro", { name }),
    t("scans.mail.facts", {
      time: formatDateTime(facts.at, lang),
      lang: t(`scans.langs.${facts.scanLang}`),
      device: t(`scans.devices.${facts.device}`),
    }),
    t("scans.inactiveMail.activate", { url: `${origin}/order` }),
    t("scans.inactiveMail.throttle"),
    t("scans.mail.signature"),
  ];
  await enqueueMail(
    db,
    {
      to: facts.to,
      subject: t("scans.inactiveMail.subject", { name }),
      text: lines.join("\n\n"),
    },
    now,
  );
}
