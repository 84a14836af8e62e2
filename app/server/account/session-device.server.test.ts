import { describe, expect, it } from "vitest";
import { sessionDeviceOf } from "./session-device.server";

// Decision 057: every session was "Unknown device"; the list names browser and system.
describe("sessionDeviceOf: a session is named by its browser and system", () => {
  it.each([
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      { device: "phone", browser: "Safari", system: "iOS" },
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
      { device: "phone", browser: "Chrome", system: "Android" },
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      { device: "tablet", browser: "Safari", system: "iOS" },
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
      { device: "computer", browser: "Microsoft Edge", system: "Windows" },
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5; rv:132.0) Gecko/20100101 Firefox/132.0",
      { device: "computer", browser: "Firefox", system: "macOS" },
    ],
  ])("%s", (ua, expected) => {
    expect(sessionDeviceOf(ua)).toEqual(expected);
  });

  it("no header is an unknown device, never a guess", () => {
    expect(sessionDeviceOf(null)).toEqual({ device: "unknown", browser: null, system: null });
    expect(sessionDeviceOf("  ")).toEqual({ device: "unknown", browser: null, system: null });
  });
});
