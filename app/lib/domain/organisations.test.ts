import { describe, expect, it } from "vitest";
import { organisationSchema } from "./organisations";

// Decision 057: a Swedish number has its check digit; a foreign company gives its own.
const form = (orgNumber: string, invoiceCountry: string) => ({
  name: "Acme",
  orgNumber,
  billingEmail: "billing@example.test",
  invoiceStreet: "1 High Street",
  invoicePostcode: "SW1A 1AA",
  invoiceCity: "London",
  invoiceCountry,
  vatNumber: "",
  deskContact: "Reception",
});
const errorOf = (orgNumber: string, country: string) => {
  const r = organisationSchema.safeParse(form(orgNumber, country));
  return r.success ? null : r.error.issues.find((i) => i.path[0] === "orgNumber")?.message;
};

describe("organisation numbers by the invoice country", () => {
  it("a Swedish organisation needs a valid Swedish number, stored as NNNNNN-NNNN", () => {
    expect(organisationSchema.parse(form("5560360793", "SE")).orgNumber).toBe("556036-0793");
    expect(errorOf("556036-0794", "SE")).toBe("organisations.errors.orgNumberInvalid");
  });

  it("a UK company gives its company number, without the Swedish check digit", () => {
    expect(organisationSchema.parse(form(" 01234567 ", "gb")).orgNumber).toBe("01234567");
    expect(organisationSchema.parse(form("hrb 12345", "DE")).orgNumber).toBe("HRB 12345");
  });

  it("a foreign number is still a number: letters alone or punctuation are refused", () => {
    expect(errorOf("ACME", "GB")).toBe("organisations.errors.orgNumberForeign");
    expect(errorOf("<b>1</b>", "GB")).toBe("organisations.errors.orgNumberForeign");
  });
});
