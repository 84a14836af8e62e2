/**
 * The spec's Address entity (section 3): its fields, limits and what a postal address needs,
 * without the form's schema (app/lib/domain/address.ts, on the server: decision 045).
 */
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

/**
 * What a postal address needs before stickers can be posted to it (decision 018): a name,
 * street, postal code, city and country. The order service refuses payment without them.
 * The last name stays optional: one-name people and companies write theirs in `firstname`.
 */
export const POSTAL_FIELDS = [
  "firstname",
  "address",
  "zip",
  "city",
  "country",
] as const satisfies readonly AddressField[];

/** The postal fields that are empty (whitespace counts as empty), in form order. */
export function missingPostalFields(address: Partial<Address> | null | undefined): AddressField[] {
  return POSTAL_FIELDS.filter((f) => !address?.[f]?.trim());
}

export function isCompletePostalAddress(address: Partial<Address> | null | undefined): boolean {
  return missingPostalFields(address).length === 0 && Boolean(address?.email?.trim());
}
