import { describe, expect, it } from "vitest";
import { isCountryCode, isEuVatNumberOf, normaliseVatNumber, vatTreatment } from "./eu-vat";
import { organisationSchema } from "./organisations";

describe("country codes (ISO 3166-1 alpha-2, explicit list)", () => {
  it("accepts assigned codes and refuses unassigned or malformed ones", () => {
    for (const c of ["SE", "DE", "GR", "NO", "US", "GB", "AX"]) expect(isCountryCode(c), c).toBe(true);
    for (const c of ["EL", "UK", "XX", "EU", "se", "S", "SWE", ""]) expect(isCountryCode(c), c).toBe(false);
  });
});

describe("EU VAT numbers are checked against the invoice country's prefix and format", () => {
  it.each([
    ["SE556036079301", "SE"],
    ["DE123456789", "DE"],
    ["ATU12345678", "AT"],
    ["EL123456789", "GR"],
    ["FRXX123456789", "FR"],
    ["NL123456789B01", "NL"],
    ["IE1234567WA", "IE"],
    ["ESX1234567X", "ES"],
    ["BE0123456789", "BE"],
  ])("%s is a VAT number of %s", (vat, country) => {
    expect(isEuVatNumberOf(vat, country)).toBe(true);
  });

  it.each([
    ["DE12345678", "DE", "one digit short"],
    ["SE556036079302", "SE", "Swedish numbers end in 01"],
    ["GR123456789", "GR", "Greece's prefix is EL"],
    ["DE123456789", "AT", "another country's prefix"],
    ["ATU1234567", "AT", "too short"],
    ["NL123456789C01", "NL", "NL needs the B"],
    ["NO123456789MVA", "NO", "not an EU member state"],
  ])("%s is not one of %s (%s)", (vat, country) => {
    expect(isEuVatNumberOf(vat, country)).toBe(false);
  });

  it("normalises spaces, dots and hyphens and upper-cases", () => {
    expect(normaliseVatNumber(" de 123.456-789 ")).toBe("DE123456789");
  });
});

describe("which VAT an invoice carries", () => {
  it("Swedish customers pay Swedish VAT, with or without a VAT number", () => {
    expect(vatTreatment({ country: "SE", vatNumber: "SE556036079301" })).toBe("swedishVat");
    expect(vatTreatment({ country: "SE", vatNumber: null })).toBe("swedishVat");
  });
  it("an EU business outside Sweden with a valid VAT number gets the reverse charge", () => {
    expect(vatTreatment({ country: "DE", vatNumber: "DE123456789" })).toBe("reverseCharge");
    expect(vatTreatment({ country: "GR", vatNumber: "el 123 456 789" })).toBe("reverseCharge");
  });
  it("an EU customer without a VAT number, or with a malformed one, pays Swedish VAT", () => {
    expect(vatTreatment({ country: "FI", vatNumber: null })).toBe("swedishVat");
    expect(vatTreatment({ country: "FI", vatNumber: "FI123" })).toBe("swedishVat");
  });
  it("a customer outside the EU pays Swedish VAT until decided otherwise (decision 027)", () => {
    expect(vatTreatment({ country: "NO", vatNumber: "NO123456789MVA" })).toBe("swedishVat");
  });
});

describe("the organisation form's VAT number", () => {
  const base = {
    name: "Acme GmbH",
    orgNumber: "5560360793",
    billingEmail: "billing@acme.example",
    invoiceStreet: "Hauptstraße 1",
    invoicePostcode: "10115",
    invoiceCity: "Berlin",
    invoiceCountry: "de",
    deskContact: "Empfang",
  };
  it("must match the invoice country's format in the EU", () => {
    const bad = organisationSchema.safeParse({ ...base, vatNumber: "SE556036079301" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["vatNumber"], message: "organisations.errors.vatFormat" });
    const good = organisationSchema.safeParse({ ...base, vatNumber: "de 123 456 789" });
    expect(good.success && good.data.vatNumber).toBe("DE123456789");
  });
  it("is optional, and loosely checked outside the EU", () => {
    expect(organisationSchema.safeParse({ ...base, vatNumber: "" }).success).toBe(true);
    expect(organisationSchema.safeParse({ ...base, invoiceCountry: "NO", vatNumber: "NO123456789MVA" }).success).toBe(
      true,
    );
  });
  it("refuses a country code that is not assigned", () => {
    expect(organisationSchema.safeParse({ ...base, invoiceCountry: "EL", vatNumber: "" }).success).toBe(false);
  });
});
