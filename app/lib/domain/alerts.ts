/**
 * The owner's alert settings (decision 033): for each event, which channels carry it.
 * Shared by the settings form and the fan-out (app/server/alerts).
 */
export const ALERT_EVENTS = ["finderMessage", "reply", "lostScan", "scan", "returned", "renewal"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const ALERT_CHANNELS = ["email", "sms", "push"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

export type AlertSettings = Record<AlertEvent, Record<AlertChannel, boolean>>;

/**
 * Finder messages on every channel set up; everything else by email (scan alerts go by
 * SMS or push only when the owner chooses so: they can be many, and SMS cost money).
 * `renewal`: a year paid at once (decision 056) ends soon or has ended, to the payer.
 */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  finderMessage: { email: true, sms: true, push: true },
  reply: { email: true, sms: false, push: false },
  lostScan: { email: true, sms: false, push: false },
  scan: { email: true, sms: false, push: false },
  returned: { email: true, sms: false, push: false },
  renewal: { email: true, sms: false, push: false },
};

/**
 * Cells that cannot be switched off: the mail that a paid year ends (or has ended) is a
 * message about the owner's contract and money, sent as every billing mail is (decision
 * 056); the settings choose only whether SMS and push carry it too.
 */
export const ALWAYS_ON: Readonly<Partial<Record<AlertEvent, readonly AlertChannel[]>>> = { renewal: ["email"] };

export const isAlwaysOn = (e: AlertEvent, c: AlertChannel): boolean => ALWAYS_ON[e]?.includes(c) ?? false;

function withAlwaysOn(settings: AlertSettings): AlertSettings {
  for (const e of ALERT_EVENTS) for (const c of ALWAYS_ON[e] ?? []) settings[e][c] = true;
  return settings;
}

export const isAlertEvent = (v: unknown): v is AlertEvent => ALERT_EVENTS.includes(v as AlertEvent);
export const isAlertChannel = (v: unknown): v is AlertChannel => ALERT_CHANNELS.includes(v as AlertChannel);

/** Stored JSON (or anything) read as settings: unknown keys dropped, missing ones default. */
export function readAlertSettings(json: string | null | undefined): AlertSettings {
  let raw: unknown;
  try {
    raw = json ? JSON.parse(json) : null;
  } catch {
    raw = null;
  }
  const out = structuredClone(DEFAULT_ALERT_SETTINGS);
  if (!raw || typeof raw !== "object") return out;
  for (const e of ALERT_EVENTS) {
    const row = (raw as Record<string, unknown>)[e];
    if (!row || typeof row !== "object") continue;
    for (const c of ALERT_CHANNELS) {
      const v = (row as Record<string, unknown>)[c];
      if (typeof v === "boolean") out[e][c] = v;
    }
  }
  return withAlwaysOn(out);
}

/**
 * The settings form: a checkbox `${event}.${channel}` per cell; unticked boxes are not sent
 * (nor disabled ones: the cells that are always on stay on).
 */
export function alertSettingsFromForm(form: Record<string, unknown>): AlertSettings {
  const out = structuredClone(DEFAULT_ALERT_SETTINGS);
  for (const e of ALERT_EVENTS) for (const c of ALERT_CHANNELS) out[e][c] = form[`${e}.${c}`] === "on";
  return withAlwaysOn(out);
}
