import { describe, expect, it } from "vitest";
import {
  DEFAULT_PACKAGE,
  DEFAULT_PERIOD,
  formatPrice,
  hasYearlyDiscount,
  MINIMUM_TERM_MONTHS,
  orderTotals,
  PACKAGE_CODES,
  packagePrice,
  price,
  priceFor,
  priceKey,
} from "./pricing";

describe("price table (spec §3)", () => {
  it("Swedish prices are 30/300 kr single and 60/600 kr tripple", () => {
    expect(price.se.single).toEqual({ month: 30, year: 300 });
    expect(price.se.tripple).toEqual({ month: 60, year: 600 });
    expect(price.se.sign).toBe("kr");
    expect(price.se.currency).toBe("SEK");
  });

  it("English prices are 3/30 euro single and 6/60 euro tripple", () => {
    expect(price.en.single).toEqual({ month: 3, year: 30 });
    expect(price.en.tripple).toEqual({ month: 6, year: 60 });
    expect(price.en.sign).toBe("euro");
    expect(price.en.currency).toBe("EUR");
  });

  it("the app language 'sv' and the spec key 'se' both mean Swedish prices; 'en' means euro", () => {
    expect(priceKey("sv")).toBe("se");
    expect(priceKey("se")).toBe("se");
    expect(priceKey("en")).toBe("en");
    expect(priceFor("sv")).toBe(price.se);
    expect(priceFor("en")).toBe(price.en);
  });

  it("packagePrice reads the table for every language, package and period", () => {
    expect(packagePrice("sv", "single", "month")).toBe(30);
    expect(packagePrice("se", "single", "year")).toBe(300);
    expect(packagePrice("sv", "tripple", "month")).toBe(60);
    expect(packagePrice("sv", "tripple", "year")).toBe(600);
    expect(packagePrice("en", "single", "month")).toBe(3);
    expect(packagePrice("en", "single", "year")).toBe(30);
    expect(packagePrice("en", "tripple", "month")).toBe(6);
    expect(packagePrice("en", "tripple", "year")).toBe(60);
  });

  it("single is 1 QR code, tripple is 3; defaults are single and yearly; minimum term 6 months", () => {
    expect(PACKAGE_CODES).toEqual({ single: 1, tripple: 3 });
    expect(DEFAULT_PACKAGE).toBe("single");
    expect(DEFAULT_PERIOD).toBe("year");
    expect(MINIMUM_TERM_MONTHS).toBe(6);
  });

  it("the marketing lines hold: yearly single under 1 kr / 0.1 euro a day, tripple under 2 kr / 0.2 euro", () => {
    for (const key of ["se", "en"] as const) {
      for (const pkg of ["single", "tripple"] as const) {
        expect(price[key][pkg].year / 365).toBeLessThan(price[key].perDayUnder[pkg]);
      }
    }
    expect(price.se.perDayUnder).toEqual({ single: 1, tripple: 2 });
    expect(price.en.perDayUnder).toEqual({ single: 0.1, tripple: 0.2 });
  });
});

describe("order totals (spec §9)", () => {
  // [count, package, discount, total] in kronor; euro is exactly a tenth.
  const yearlySek: Array<[number, number, number, number]> = [
    [0, 0, 0, 0],
    [1, 300, 0, 300],
    [2, 600, 0, 600],
    [3, 900, 300, 600],
    [4, 1200, 400, 800],
    [5, 1500, 500, 1000],
    [6, 1800, 600, 1200],
    [7, 2100, 700, 1400],
  ];

  for (const [count, pkg, discount, total] of yearlySek) {
    it(`${count} items yearly in Swedish: ${pkg} kr package, ${discount} kr discount, ${total} kr total`, () => {
      expect(orderTotals({ lang: "sv", period: "year", count })).toEqual({
        currency: "SEK",
        sign: "kr",
        period: "year",
        count,
        unitPrice: 300,
        packagePrice: pkg,
        discount,
        total,
        minor: { unitPrice: 30000, packagePrice: pkg * 100, discount: discount * 100, total: total * 100 },
      });
    });

    it(`${count} items yearly in English: €${pkg / 10} package, €${discount / 10} discount, €${total / 10} total`, () => {
      expect(orderTotals({ lang: "en", period: "year", count })).toEqual({
        currency: "EUR",
        sign: "euro",
        period: "year",
        count,
        unitPrice: 30,
        packagePrice: pkg / 10,
        discount: discount / 10,
        total: total / 10,
        minor: { unitPrice: 3000, packagePrice: pkg * 10, discount: discount * 10, total: total * 10 },
      });
    });
  }

  for (let count = 0; count <= 7; count++) {
    it(`${count} items monthly get no discount: ${count * 30} kr / €${count * 3}`, () => {
      const sek = orderTotals({ lang: "sv", period: "month", count });
      expect(sek).toMatchObject({ currency: "SEK", sign: "kr", unitPrice: 30, packagePrice: count * 30, discount: 0 });
      expect(sek.total).toBe(count * 30);
      expect(sek.minor.total).toBe(count * 3000);
      const eur = orderTotals({ lang: "en", period: "month", count });
      expect(eur).toMatchObject({ currency: "EUR", sign: "euro", unitPrice: 3, packagePrice: count * 3, discount: 0 });
      expect(eur.total).toBe(count * 3);
      expect(eur.minor.total).toBe(count * 300);
    });
  }

  it("the spec key 'se' gives the same totals as the app language 'sv'", () => {
    for (let count = 0; count <= 7; count++) {
      for (const period of ["month", "year"] as const) {
        expect(orderTotals({ lang: "se", period, count })).toEqual(orderTotals({ lang: "sv", period, count }));
      }
    }
  });

  it("3 single items yearly cost the same as one tripple package", () => {
    expect(orderTotals({ lang: "sv", period: "year", count: 3 }).total).toBe(price.se.tripple.year);
    expect(orderTotals({ lang: "en", period: "year", count: 3 }).total).toBe(price.en.tripple.year);
  });

  it("the yearly discount applies above 3 items or at multiples of 3, never monthly or with no items", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9, 12].map((n) => hasYearlyDiscount("year", n))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    for (let n = 0; n <= 12; n++) expect(hasYearlyDiscount("month", n)).toBe(false);
  });

  it("a count that is not a whole number ≥ 0 is refused", () => {
    for (const count of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => orderTotals({ lang: "en", period: "year", count })).toThrow(RangeError);
    }
  });

  it("an unknown period is refused", () => {
    expect(() => orderTotals({ lang: "en", period: "week" as "month", count: 1 })).toThrow(RangeError);
  });
});

describe("formatPrice: one style per language", () => {
  it("Swedish writes the amount then kr", () => {
    expect(formatPrice(30, "sv")).toBe("30 kr");
    expect(formatPrice(300, "se")).toBe("300 kr");
    expect(formatPrice(1200, "sv")).toBe("1200 kr");
    expect(formatPrice(0, "sv")).toBe("0 kr");
    expect(formatPrice(1, "sv")).toBe("1 kr");
  });

  it("English writes € then the amount", () => {
    expect(formatPrice(3, "en")).toBe("€3");
    expect(formatPrice(30, "en")).toBe("€30");
    expect(formatPrice(120, "en")).toBe("€120");
    expect(formatPrice(0, "en")).toBe("€0");
  });

  it("fractions show two decimals, with a decimal comma in Swedish", () => {
    expect(formatPrice(0.1, "en")).toBe("€0.10");
    expect(formatPrice(0.2, "en")).toBe("€0.20");
    expect(formatPrice(12.5, "en")).toBe("€12.50");
    expect(formatPrice(0.5, "sv")).toBe("0,50 kr");
    expect(formatPrice(99.99, "sv")).toBe("99,99 kr");
    expect(formatPrice(0.1 + 0.2, "en")).toBe("€0.30");
  });

  it("negative amounts get a leading minus", () => {
    expect(formatPrice(-400, "sv")).toBe("-400 kr");
    expect(formatPrice(-40, "en")).toBe("-€40");
    expect(formatPrice(-0.001, "en")).toBe("€0");
  });

  it("formats every order total of the table", () => {
    const t = orderTotals({ lang: "sv", period: "year", count: 4 });
    expect([t.packagePrice, t.discount, t.total].map((a) => formatPrice(a, "sv"))).toEqual([
      "1200 kr",
      "400 kr",
      "800 kr",
    ]);
    const e = orderTotals({ lang: "en", period: "year", count: 4 });
    expect([e.packagePrice, e.discount, e.total].map((a) => formatPrice(a, "en"))).toEqual(["€120", "€40", "€80"]);
  });

  it("refuses what is not a number", () => {
    expect(() => formatPrice(Number.NaN, "en")).toThrow(RangeError);
  });
});
