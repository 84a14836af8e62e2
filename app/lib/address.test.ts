import { describe, expect, it } from "vitest";
import { addressFromUser, emptyAddress, parseAddressForm, parseStoredAddress } from "./address";

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

  it("needs an email of email form; the other fields are optional and capped at 200", () => {
    expect(parseAddressForm(form({ email: "a@example.test", save: "on" }))).toMatchObject({ ok: true, save: true });
    expect(parseAddressForm(form({ email: "a@example.test" }))).toMatchObject({ ok: true, save: false });
    expect(parseAddressForm(form({ email: "" }))).toMatchObject({
      ok: false,
      errors: { email: "address.errors.emailRequired" },
    });
    expect(parseAddressForm(form({ email: "nope" }))).toMatchObject({
      ok: false,
      errors: { email: "address.errors.emailInvalid" },
    });
    expect(parseAddressForm(form({ email: "a@example.test", city: "x".repeat(201) }))).toMatchObject({
      ok: false,
      errors: { city: "address.errors.tooLong" },
    });
  });
});
