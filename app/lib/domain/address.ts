/**
 * The spec's Address entity (section 3) and its form. The spec asks for no validation
 * beyond the email input type; we also require the email (the order and the sticker
 * mail need it, and pay-now only skips this form when an address has one) and cap the
 * lengths so a stored address stays small.
 */
import { z } from "zod";
import { countryCodeOf, normalisePostalCode, usesRegion } from "./countries";

import {
  ADDRESS_FIELD_MAX,
  ADDRESS_FIELDS,
  type Address,
  type AddressErrors,
  type AddressField,
} from "../forms/address-fields";

export * from "../forms/address-fields";

const text = z.string().trim().max(ADDRESS_FIELD_MAX, "address.errors.tooLong");
const required = text.min(1, "address.errors.required");

const addressFields = z.object({
  firstname: required,
  lastname: text,
  email: z
    .string()
    .trim()
    .min(1, "address.errors.emailRequired")
    .max(ADDRESS_FIELD_MAX, "address.errors.tooLong")
    .pipe(z.email("address.errors.emailInvalid")),
  co: text,
  address: required,
  address2: text,
  city: required,
  state: text,
  zip: required,
  country: required,
});

/**
 * The address form's rules (decision 032): the country is one of ISO 3166 (an address
 * saved as free text, "Sweden", is read by its name), the postal code is checked for its
 * country and stored as that country writes it ("123 45"), and a region is kept only where
 * the country uses one.
 */
export const addressSchema = addressFields.transform((a, ctx) => {
  const country = countryCodeOf(a.country);
  if (country === null) {
    ctx.addIssue({ code: "custom", path: ["country"], message: "address.errors.country" });
    return z.NEVER;
  }
  const zip = normalisePostalCode(country, a.zip);
  if (zip === null) {
    ctx.addIssue({ code: "custom", path: ["zip"], message: "address.errors.zipInvalid" });
    return z.NEVER;
  }
  return { ...a, country, zip, state: usesRegion(country) ? a.state : "" };
});

export function emptyAddress(): Address {
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, ""])) as Address;
}

/** A stored address (JSON text) as an Address, tolerating missing or odd fields. */
export function parseStoredAddress(json: string | null | undefined): Address | null {
  if (!json) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== "object") return null;
  const out = emptyAddress();
  for (const f of ADDRESS_FIELDS) {
    const v = (raw as Record<string, unknown>)[f];
    if (typeof v === "string") out[f] = v;
  }
  return out;
}

/** The spec's fallback prefill: the user's name split at the first space, and the email. */
export function addressFromUser(name: string, email: string): Address {
  const trimmed = name.trim();
  const space = trimmed.indexOf(" ");
  return {
    ...emptyAddress(),
    firstname: space === -1 ? trimmed : trimmed.slice(0, space),
    lastname: space === -1 ? "" : trimmed.slice(space + 1).trim(),
    email,
  };
}

export function addressFormValues(form: FormData): Address {
  const out = emptyAddress();
  for (const f of ADDRESS_FIELDS) {
    const v = form.get(f);
    if (typeof v === "string") out[f] = v;
  }
  return out;
}

/** What the address form shows again: the fields and the "save on my profile" box. */
export type AddressFormValues = Address & { save: boolean };

export type ParsedAddressForm =
  { ok: true; data: Address; save: boolean } | { ok: false; values: AddressFormValues; errors: AddressErrors };

export function parseAddressForm(form: FormData): ParsedAddressForm {
  const values = addressFormValues(form);
  const save = form.get("save") === "on" || form.get("save") === "true";
  const result = addressSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data, save };
  const errors: AddressErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as AddressField;
    errors[field] ??= issue.message.startsWith("address.") ? issue.message : "address.errors.emailInvalid";
  }
  // The country and postal code are checked after the other fields parse: say it at once.
  const country = countryCodeOf(values.country);
  if (values.country.trim() && country === null) errors.country ??= "address.errors.country";
  if (country !== null && values.zip.trim() && normalisePostalCode(country, values.zip) === null) {
    errors.zip ??= "address.errors.zipInvalid";
  }
  return { ok: false, values: { ...values, save }, errors };
}
