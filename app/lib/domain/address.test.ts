import { describe, expect, it } from "vitest";
import {
  addressFromUser,
  emptyAddress,
  isCompletePostalAddress,
  missingPostalFields,
  parseAddressForm,
  parseStoredAddress,
} from "./address";

const POSTAL = { firstname: "Anna", address: "Storgatan 1", zip: "753 20", city: "Uppsala", country: "Sweden" };

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("address", () => {
  it("prefills from the user's name split at the first space, and the email", () => {
    expect(addressFromUser("Anna Maria Lind", "a@example.test")).toMatchObject({
      firstname: "Anna",
      lastname: "Maria Lind",
      email: "a@example.test",
    });
    expect(addressFromUser("Cher", "c@example.test")).toMatchObject({ firstname: "Cher", lastname: "" });
  });

  it("reads a stored address tolerantly (unknown fields dropped, bad JSON ignored)", () => {
    expect(parseStoredAddress('{"city":"Lund","evil":"x","zip":5}')).toEqual({ ...emptyAddress(), city: "Lund" });
    expect(parseStoredAddress("not json")).toBeNull();
    expect(parseStoredAddress(null)).toBeNull();
  });

  it("needs an email of email form and a complete postal address; the other fields are optional and capped at 200", () => {
    expect(parseAddressForm(form({ ...POSTAL, email: "a@example.test", save: "on" }))).toMatchObject({
      ok: true,
      save: true,
    });
    expect(parseAddressForm(form({ ...POSTAL, email: "a@example.test" }))).toMatchObject({ ok: true, save: false });
    expect(parseAddressForm(form({ ...POSTAL, email: "" }))).toMatchObject({
      ok: false,
      errors: { email: "address.errors.emailRequired" },
    });
    expect(parseAddressForm(form({ ...POSTAL, email: "nope" }))).toMatchObject({
      ok: false,
      errors: { email: "address.errors.emailInvalid" },
    });
    expect(parseAddressForm(form({ ...POSTAL, email: "a@example.test", city: "x".repeat(201) }))).toMatchObject({
      ok: false,
      errors: { city: "address.errors.tooLong" },
    });
  });

  it("stickers need somewhere to go: the form names each missing postal field (issue #19)", () => {
    expect(parseAddressForm(form({ email: "a@example.test", city: "  " }))).toMatchObject({
      ok: false,
      errors: {
        firstname: "address.errors.required",
        address: "address.errors.required",
        zip: "address.errors.required",
        city: "address.errors.required",
        country: "address.errors.required",
      },
    });
    const r = parseAddressForm(form({ email: "a@example.test", city: "  " }));
    expect(r.ok ? [] : Object.keys(r.errors)).not.toContain("lastname");
  });

  it("a postal address is complete with a name, street, postal code, city, country and email", () => {
    const full = { ...emptyAddress(), ...POSTAL, email: "a@example.test" };
    expect(missingPostalFields(full)).toEqual([]);
    expect(isCompletePostalAddress(full)).toBe(true);
    expect(missingPostalFields({ ...full, zip: " ", country: "" })).toEqual(["zip", "country"]);
    expect(isCompletePostalAddress({ ...full, email: "" })).toBe(false);
    expect(missingPostalFields(null)).toEqual(["firstname", "address", "zip", "city", "country"]);
  });

  it("stores the country's code, the postal code as the country writes it, and a region only where one is used (issue #32 point 11)", () => {
    const ok = parseAddressForm(form({ ...POSTAL, email: "a@example.test", zip: "75320", state: "Uppland" }));
    expect(ok).toMatchObject({ ok: true, data: { country: "SE", zip: "753 20", state: "" } });
    const us = parseAddressForm(
      form({ ...POSTAL, email: "a@example.test", country: "US", zip: "94105", city: "San Francisco", state: "CA" }),
    );
    expect(us).toMatchObject({ ok: true, data: { country: "US", zip: "94105", state: "CA" } });
  });

  it("refuses a postal code that is not one of the chosen country, and an unknown country, with the input kept", () => {
    const bad = parseAddressForm(form({ ...POSTAL, email: "a@example.test", zip: "1234" }));
    expect(bad).toMatchObject({ ok: false, errors: { zip: "address.errors.zipInvalid" }, values: { zip: "1234" } });
    // Said together with the other fields' errors, not after they are fixed.
    const both = parseAddressForm(form({ ...POSTAL, email: "", zip: "ABC" }));
    expect(both).toMatchObject({
      ok: false,
      errors: { email: "address.errors.emailRequired", zip: "address.errors.zipInvalid" },
    });
    const nowhere = parseAddressForm(form({ ...POSTAL, email: "a@example.test", country: "Atlantis" }));
    expect(nowhere).toMatchObject({ ok: false, errors: { country: "address.errors.country" } });
  });
});
