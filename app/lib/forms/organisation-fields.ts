/**
 * The organisation forms' limits and field names, without their schemas: what the browser
 * needs to render the forms (maxlength). The schemas stay on the server
 * (app/lib/domain/organisations.ts, decision 045).
 */
export * from "../domain/organisation-roles";

export const ORG_NAME_MAX = 200;
export const ORG_TEXT_MAX = 200;
export const DESK_CONTACT_MAX = 500;
export const EMAIL_MAX = 254;

export const ORGANISATION_FIELDS = [
  "name",
  "orgNumber",
  "billingEmail",
  "invoiceStreet",
  "invoicePostcode",
  "invoiceCity",
  "invoiceCountry",
  "vatNumber",
  "deskContact",
] as const;
