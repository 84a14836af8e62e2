import { describe, expect, it } from "vitest";
import { deviceClassOf } from "./scans";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
const ANDROID_TABLET =
  "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

describe("deviceClassOf: the scan log keeps only a coarse device class", () => {
  it("phones, tablets and desktops are told apart", () => {
    expect(deviceClassOf(IPHONE)).toBe("phone");
    expect(deviceClassOf(ANDROID_PHONE)).toBe("phone");
    expect(deviceClassOf(ANDROID_TABLET)).toBe("tablet");
    expect(deviceClassOf(IPAD)).toBe("tablet");
    expect(deviceClassOf(DESKTOP)).toBe("desktop");
  });

  it("crawlers, link previews, scripts and a missing User-Agent are bots (not counted as scans)", () => {
    for (const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "WhatsApp/2.23.20.0",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "curl/8.5.0",
      "node",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36",
      "",
      undefined,
    ]) {
      expect(deviceClassOf(ua), String(ua)).toBe("bot");
    }
  });
});
