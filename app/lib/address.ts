/**
 * The spec's Address entity (section 3) and its form. The spec asks for no validation
 * beyond the email input type; we also require the email (the order and the sticker
 * mail need it, and pay-now only skips this form when an address has one) and cap the
 * lengths so a stored address stays small.
 */
import { z } from "zod";

export const ADDRESS_FIELDS = [
  "firstname",
  "lastname",
  "email",
  "co",
  "address",
  "address2",
  "city",
  "state",
  "zip",
  "country",
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Address = Record<AddressField, string>;
export type AddressErrors = Partial<Record<AddressField, string>>;

export const ADDRESS_FIELD_MAX = 200;

const text = z.string().trim().max(ADDRESS_FIELD_MAX, "address.errors.tooLong");

export const addressSchema = z.object({
  firstname: text,
  lastname: text,
  email: z
    .string()
    .trim()
    .min(1, "address.errors.emailRequired")
    .max(ADDRESS_FIELD_MAX, "address.errors.tooLong")
    .pipe(z.email("address.errors.emailInvalid")),
  co: text,
  address: text,
  address2: text,
  city: text,
  state: text,
  zip: text,
  country: text,
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

export type ParsedAddressForm =
  { ok: true; data: Address; save: boolean } | { ok: false; values: Address; save: boolean; errors: AddressErrors };

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
  return { ok: false, values, save, errors };
}
