import { describe, expect, it } from "vitest";
import { emailOf, mapsLink, parseFinderMessage, parseOwnerReply, RELAY_MESSAGE_MAX } from "./relay";

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("finder message form", () => {
  it("requires a message of at most 2,000 characters; email or phone is optional", () => {
    expect(parseFinderMessage(form({ message: "  " }))).toMatchObject({
      ok: false,
      fieldErrors: { message: "relay.errors.messageRequired" },
    });
    expect(parseFinderMessage(form({ message: "x".repeat(RELAY_MESSAGE_MAX + 1) }))).toMatchObject({
      ok: false,
      fieldErrors: { message: "relay.errors.messageTooLong" },
    });
    expect(parseFinderMessage(form({ message: "x".repeat(RELAY_MESSAGE_MAX) }))).toMatchObject({ ok: true });
    expect(parseFinderMessage(form({ message: " Found it ", contact: "" }))).toMatchObject({
      ok: true,
      data: { message: "Found it", contact: "", js: false, trap: false },
    });
  });

  it("accepts latitude −90..90 and longitude −180..180, both or neither", () => {
    const ok = parseFinderMessage(form({ message: "m", latitude: "-90", longitude: "180" }));
    expect(ok).toMatchObject({ ok: true, data: { latitude: -90, longitude: 180 } });
    for (const [latitude, longitude] of [
      ["90.0001", "0"],
      ["0", "-180.5"],
      ["abc", "1"],
      ["1e2", "1"],
      ["NaN", "1"],
      ["Infinity", "1"],
      ["1", ""],
      ["", "1"],
    ]) {
      const r = parseFinderMessage(form({ message: "m", latitude: latitude!, longitude: longitude! }));
      expect(r, `${latitude},${longitude}`).toMatchObject({
        ok: false,
        fieldErrors: { latitude: "relay.errors.badLocation" },
      });
    }
  });

  it("notes a filled-in honeypot and whether the page's script ran", () => {
    expect(parseFinderMessage(form({ message: "m", website: "http://spam" }))).toMatchObject({ data: { trap: true } });
    expect(parseFinderMessage(form({ message: "m", js: "1" }))).toMatchObject({ data: { js: true } });
  });
});

describe("owner reply", () => {
  it("is a required text of at most 2,000 characters", () => {
    expect(parseOwnerReply(form({ message: " Tack! " }))).toMatchObject({ ok: true, text: "Tack!" });
    expect(parseOwnerReply(form({ message: "" }))).toMatchObject({ ok: false });
  });
});

describe("helpers", () => {
  it("the maps link is built from latitude and longitude (spec's location helper)", () => {
    expect(mapsLink({ latitude: 59.3293, longitude: 18.0686 })).toBe(
      "https://www.google.com/maps/search/?api=1&query=59.3293,18.0686",
    );
  });
  it("only an email address gets mail; a phone number does not", () => {
    expect(emailOf(" finder@example.test ")).toBe("finder@example.test");
    expect(emailOf("070-123 45 67")).toBeNull();
  });
});
