import { describe, expect, it } from "vitest";
import { languageFromAcceptLanguage, pickLanguage, toSpecLang } from "./config";

describe("language choice", () => {
  it("is Swedish when the browser prefers Swedish", () => {
    expect(languageFromAcceptLanguage("sv-SE,sv;q=0.9,en;q=0.8")).toBe("sv");
    expect(languageFromAcceptLanguage("sv")).toBe("sv");
  });
  it("is English when the browser prefers English or anything else", () => {
    expect(languageFromAcceptLanguage("en-GB,en;q=0.9,sv;q=0.5")).toBe("en");
    expect(languageFromAcceptLanguage("de-DE,de;q=0.9")).toBe("en");
    expect(languageFromAcceptLanguage("")).toBe("en");
    expect(languageFromAcceptLanguage(undefined)).toBe("en");
  });
  it("follows q-values, not order", () => {
    expect(languageFromAcceptLanguage("en;q=0.4,sv;q=0.9")).toBe("sv");
  });
  it("skips languages we do not have before deciding", () => {
    expect(languageFromAcceptLanguage("de,sv;q=0.8,en;q=0.5")).toBe("sv");
  });
  it("ignores malformed headers", () => {
    expect(languageFromAcceptLanguage(";;;q=abc,,")).toBe("en");
  });
  it("a language cookie wins over the browser", () => {
    expect(pickLanguage("en", "sv-SE")).toBe("en");
    expect(pickLanguage("sv", "en-US")).toBe("sv");
    expect(pickLanguage("fr", "sv-SE")).toBe("sv");
  });
  it("maps to the spec's language keys", () => {
    expect(toSpecLang("sv")).toBe("se");
    expect(toSpecLang("en")).toBe("en");
  });
});
