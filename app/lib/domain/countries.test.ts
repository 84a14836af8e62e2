import { describe, expect, it } from "vitest";
import { countryCodeOf, countryName, countryOptions, normalisePostalCode, usesRegion } from "./countries";

describe("the address form's country select (issue #32 point 11)", () => {
  it("lists every ISO 3166 country with its name in the page's language, Sweden first, then by name", () => {
    for (const lang of ["sv", "en"]) {
      const options = countryOptions(lang);
      expect(options).toHaveLength(249);
      expect(options[0]).toEqual({ code: "SE", name: lang === "sv" ? "Sverige" : "Sweden" });
      const names = options.slice(1).map((o) => o.name);
      expect(names).toEqual([...names].sort(new Intl.Collator(lang).compare));
    }
    expect(countryName("GB", "sv")).toBe("Storbritannien");
    expect(countryName("DE", "en")).toBe("Germany");
  });

  it("reads an address saved as free text by its English or Swedish name", () => {
    expect(countryCodeOf("Sweden")).toBe("SE");
    expect(countryCodeOf(" sverige ")).toBe("SE");
    expect(countryCodeOf("Tyskland")).toBe("DE");
    expect(countryCodeOf("UK")).toBe("GB");
    expect(countryCodeOf("se")).toBe("SE");
    expect(countryCodeOf("Atlantis")).toBeNull();
  });
});

describe("postal codes are checked per country and written as its post writes them", () => {
  it.each([
    ["SE", "12345", "123 45"],
    ["SE", "123 45", "123 45"],
    ["SE", "SE-753 20", "753 20"],
    ["GB", "sw1a1aa", "SW1A 1AA"],
    ["GB", "M1 1AE", "M1 1AE"],
    ["US", "94105", "94105"],
    ["US", "941051234", "94105-1234"],
    ["NL", "1012ab", "1012 AB"],
    ["PL", "00950", "00-950"],
    ["NO", "0150", "0150"],
    ["DE", "10115", "10115"],
    ["BR", "01310-100", "01310-100"],
  ])("%s %s → %s", (country, zip, shown) => {
    expect(normalisePostalCode(country, zip)).toBe(shown);
  });

  it.each([
    ["SE", "1234"],
    ["SE", "123456"],
    ["SE", "ABCDE"],
    ["GB", "12345"],
    ["US", "9410"],
    ["NO", "12345"],
    ["DE", "1011"],
    ["BR", "<script>"],
    ["BR", ""],
  ])("%s %s is refused", (country, zip) => {
    expect(normalisePostalCode(country, zip)).toBeNull();
  });

  it("asks for a region only where the country uses one", () => {
    expect(usesRegion("US")).toBe(true);
    expect(usesRegion("CA")).toBe(true);
    expect(usesRegion("SE")).toBe(false);
    expect(usesRegion("GB")).toBe(false);
  });
});
