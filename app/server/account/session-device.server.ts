/**
 * What the sessions list on /account calls a signed-in device (decision 057): the
 * browser and the system, "Safari on iOS", read from the session's User-Agent by bowser, a
 * kept parser (the hand-written patterns before it knew five browsers and no system, and
 * every session showed as "Unknown device"). The header itself never reaches the page.
 */
import { parse } from "bowser";
import type { DeviceClass } from "~/lib/domain/account";

export interface SessionDevice {
  device: DeviceClass;
  /** "Chrome", "Safari", "Microsoft Edge"…, or null when the header names none. */
  browser: string | null;
  /** "iOS", "Android", "Windows", "macOS", "Linux"…, or null. */
  system: string | null;
}

const DEVICE: Record<string, DeviceClass> = { mobile: "phone", tablet: "tablet", desktop: "computer" };

export function sessionDeviceOf(userAgent: string | null | undefined): SessionDevice {
  const ua = (userAgent ?? "").trim();
  if (!ua) return { device: "unknown", browser: null, system: null };
  const parsed = parse(ua);
  return {
    device: DEVICE[parsed.platform.type ?? ""] ?? "unknown",
    browser: parsed.browser.name || null,
    system: parsed.os.name || null,
  };
}
