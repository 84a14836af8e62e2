import { describe, expect, it } from "vitest";
import {
  minimumTermCommitment,
  nextItemIsFree,
  addMonths,
  cancelledSubscriptionEnd,
  DEFAULT_PACKAGE,
  DEFAULT_PERIOD,
  formatPrice,
  hasDiscount,
  MINUS,
  MINIMUM_TERM_MONTHS,
  minimumTermEnd,
  orderTotals,
  PACKAGE_CODES,
  packagePrice,
  PERIOD_MONTHS,
  periodEnd,
  price,
  priceFor,
  priceKey,
  THIN_SPACE,
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

  // [count, package, discount, total] in kronor monthly; euro is exactly a tenth (decision 018).
  const monthlySek: Array<[number, number, number, number]> = [
    [0, 0, 0, 0],
    [1, 30, 0, 30],
    [2, 60, 0, 60],
    [3, 90, 30, 60],
    [4, 120, 40, 80],
    [5, 150, 50, 100],
    [6, 180, 60, 120],
    [7, 210, 70, 140],
  ];
  for (const [count, pkg, discount, total] of monthlySek) {
    it(`${count} items monthly get the same discount rule: ${pkg} − ${discount} = ${total} kr / €${total / 10}`, () => {
      const sek = orderTotals({ lang: "sv", period: "month", count });
      expect(sek).toMatchObject({ currency: "SEK", sign: "kr", unitPrice: 30, packagePrice: pkg, discount, total });
      expect(sek.minor).toEqual({
        unitPrice: 3000,
        packagePrice: pkg * 100,
        discount: discount * 100,
        total: total * 100,
      });
      const eur = orderTotals({ lang: "en", period: "month", count });
      expect(eur).toMatchObject({
        currency: "EUR",
        sign: "euro",
        unitPrice: 3,
        packagePrice: pkg / 10,
        discount: discount / 10,
        total: total / 10,
      });
      expect(eur.minor.total).toBe(total * 10);
    });
  }

  it("the advertised Tripple price is the price charged for 3 items, monthly and yearly (issue #19)", () => {
    for (const lang of ["sv", "en"] as const) {
      for (const period of ["month", "year"] as const) {
        expect(orderTotals({ lang, period, count: 3 }).total).toBe(packagePrice(lang, "tripple", period));
      }
    }
  });

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

  it("the discount applies above 3 items or at multiples of 3, never with no items", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9, 12].map((n) => hasDiscount(n))).toEqual([
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
    expect(formatPrice(1200, "sv")).toBe(`1${THIN_SPACE}200 kr`);
    expect(formatPrice(100000, "sv")).toBe("100\u202f000 kr");
    expect(formatPrice(999, "sv")).toBe("999 kr");
    expect(formatPrice(0, "sv")).toBe("0 kr");
    expect(formatPrice(1, "sv")).toBe("1 kr");
  });

  it("English writes € then the amount", () => {
    expect(formatPrice(3, "en")).toBe("€3");
    expect(formatPrice(30, "en")).toBe("€30");
    expect(formatPrice(120, "en")).toBe("€120");
    expect(formatPrice(1200, "en")).toBe("€1,200");
    expect(formatPrice(1234567.5, "en")).toBe("€1,234,567.50");
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

  it("negative amounts get a real minus sign, not a hyphen (issue #19)", () => {
    expect(MINUS).toBe("\u2212");
    expect(formatPrice(-400, "sv")).toBe("\u2212400 kr");
    expect(formatPrice(-300, "sv")).toBe("−300 kr");
    expect(formatPrice(-40, "en")).toBe("\u2212€40");
    expect(formatPrice(-0.001, "en")).toBe("€0");
  });

  it("formats every order total of the table", () => {
    const t = orderTotals({ lang: "sv", period: "year", count: 4 });
    expect([t.packagePrice, t.discount, t.total].map((a) => formatPrice(a, "sv"))).toEqual([
      `1${THIN_SPACE}200 kr`,
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

describe("every order case, both currencies (issue #6)", () => {
  // Yearly single prices: 300 kr / €30; monthly 30 kr / €3.
  const unit = { sv: { year: 300, month: 30 }, en: { year: 30, month: 3 } } as const;
  for (const lang of ["sv", "en"] as const) {
    for (const period of ["month", "year"] as const) {
      for (let count = 1; count <= 7; count++) {
        const pkg = unit[lang][period] * count;
        const discounted = count > 3 || count % 3 === 0;
        const discount = discounted ? (unit[lang][period] * count) / 3 : 0;
        const total = pkg - discount;
        it(`${count} × ${period} in ${lang}: package ${formatPrice(pkg, lang)}, discount ${formatPrice(discount, lang)}, total ${formatPrice(total, lang)}`, () => {
          const t = orderTotals({ lang, period, count });
          expect(t.currency).toBe(lang === "sv" ? "SEK" : "EUR");
          expect(t.sign).toBe(lang === "sv" ? "kr" : "euro");
          expect([t.packagePrice, t.discount, t.total]).toEqual([pkg, discount, total]);
          expect(t.minor).toEqual({
            unitPrice: unit[lang][period] * 100,
            packagePrice: pkg * 100,
            discount: discount * 100,
            total: total * 100,
          });
        });
      }
    }
  }
});

describe("subscription dates", () => {
  const at = (s: string) => Date.parse(s);

  it("adds calendar months in UTC and clamps to the month's last day", () => {
    expect(addMonths(at("2026-01-15T10:00:00Z"), 1)).toBe(at("2026-02-15T10:00:00Z"));
    expect(addMonths(at("2026-01-31T10:00:00Z"), 1)).toBe(at("2026-02-28T10:00:00Z"));
    expect(addMonths(at("2028-01-31T00:00:00Z"), 1)).toBe(at("2028-02-29T00:00:00Z"));
    expect(addMonths(at("2026-11-30T00:00:00Z"), 3)).toBe(at("2027-02-28T00:00:00Z"));
    expect(addMonths(at("2026-12-31T23:59:59Z"), 12)).toBe(at("2027-12-31T23:59:59Z"));
  });

  it("a period ends one month or one year after it starts", () => {
    expect(PERIOD_MONTHS).toEqual({ month: 1, year: 12 });
    expect(periodEnd(at("2026-03-10T00:00:00Z"), "month")).toBe(at("2026-04-10T00:00:00Z"));
    expect(periodEnd(at("2026-03-10T00:00:00Z"), "year")).toBe(at("2027-03-10T00:00:00Z"));
    expect(periodEnd(at("2026-03-10T00:00:00Z"), "month", 6)).toBe(at("2026-09-10T00:00:00Z"));
  });

  it("the minimum term ends 6 months after the start", () => {
    expect(minimumTermEnd(at("2026-03-10T00:00:00Z"))).toBe(at("2026-09-10T00:00:00Z"));
    expect(minimumTermEnd(at("2026-08-31T00:00:00Z"))).toBe(at("2027-02-28T00:00:00Z"));
  });

  it("a monthly subscription cancelled before 6 months runs to the 6-month mark", () => {
    const start = at("2026-01-01T00:00:00Z");
    const minimumUntil = minimumTermEnd(start);
    // Cancelled in month 2: paid until 1 March, still runs until 1 July.
    expect(cancelledSubscriptionEnd({ paidUntil: periodEnd(start, "month", 2), minimumUntil })).toBe(minimumUntil);
    // Cancelled in month 8: ends when the paid month ends.
    expect(cancelledSubscriptionEnd({ paidUntil: periodEnd(start, "month", 8), minimumUntil })).toBe(
      periodEnd(start, "month", 8),
    );
    // Yearly: the first period already covers the minimum term.
    expect(cancelledSubscriptionEnd({ paidUntil: periodEnd(start, "year"), minimumUntil })).toBe(
      periodEnd(start, "year"),
    );
  });

  it("refuses what is not a date or a whole number of months", () => {
    expect(() => addMonths(Number.NaN, 1)).toThrow(RangeError);
    expect(() => addMonths(0, 1.5)).toThrow(RangeError);
  });
});

describe("what the order page says beside the totals (issue #32 point 7)", () => {
  it("a third item is free when two cost the Triple price, in both periods and currencies", () => {
    for (const lang of ["sv", "en"] as const) {
      for (const period of ["month", "year"] as const) {
        expect(nextItemIsFree({ lang, period, count: 2 })).toBe(true);
        for (const count of [0, 1, 3, 4, 5, 6]) expect(nextItemIsFree({ lang, period, count })).toBe(false);
      }
    }
  });
  it("a monthly plan commits to 6 monthly payments; a year paid up front commits to nothing more", () => {
    expect(minimumTermCommitment("month", 60)).toBe(360);
    expect(minimumTermCommitment("month", 8)).toBe(48);
    expect(minimumTermCommitment("year", 600)).toBeNull();
  });
});
