/**
 * Scan log facts shared by server and screens (decision 014).
 * Only a coarse device class is kept from the User-Agent header, never the header itself.
 */
export const DEVICE_CLASSES = ["phone", "tablet", "desktop"] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** How many scans the owner's view of the item page lists. */
export const RECENT_SCANS = 20;

/**
 * Crawlers, link previews, monitors and command-line clients: not a person holding the
 * item, so not a scan. A missing User-Agent counts as a bot too (browsers always send one).
 */
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|preview|facebookexternalhit|embedly|whatsapp|telegram|discord|skype|headless|lighthouse|pingdom|uptime|monitor|curl\/|wget\/|python-|httpx|okhttp|go-http-client|node-fetch|undici|axios|java\/|libwww|scrapy|autocannon|^node$|^$/i;
const TABLET = /ipad|tablet|kindle|silk\/|playbook|(android(?!.*mobile))/i;
const PHONE = /mobile|iphone|ipod|android|windows phone|blackberry|opera mini/i;

function classify(ua: string): DeviceClass | "bot" {
  if (BOT.test(ua)) return "bot";
  if (TABLET.test(ua)) return "tablet";
  if (PHONE.test(ua)) return "phone";
  return "desktop";
}

/** Remembered per header: a busy finder page sees few distinct User-Agents. */
const known = new Map<string, DeviceClass | "bot">();

/** The coarse class of a User-Agent header: phone, tablet, desktop or bot. */
export function deviceClassOf(userAgent: string | null | undefined): DeviceClass | "bot" {
  const ua = (userAgent ?? "").trim();
  let cls = known.get(ua);
  if (!cls) {
    cls = classify(ua);
    if (known.size >= 1000) known.clear();
    known.set(ua, cls);
  }
  return cls;
}

export function toDeviceClass(v: string): DeviceClass {
  return (DEVICE_CLASSES as readonly string[]).includes(v) ? (v as DeviceClass) : "desktop";
}

/** A scan as the owner sees it. */
export interface ScanEntry {
  at: number;
  lang: "en" | "sv";
  device: DeviceClass;
}
