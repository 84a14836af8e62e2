/**
 * Organisation forms (decision 022): one zod schema per form of /organisations/new,
 * /organisations/{id} and /invite/{token}. Messages are translation keys (organisations.json).
 */
import { z } from "zod";
import { isCountryCode, isEuCountry, isEuVatNumberOf, normaliseVatNumber } from "./eu-vat";
import { DESK_CONTACT_MAX, EMAIL_MAX, ORG_NAME_MAX, ORG_ROLES, ORG_TEXT_MAX } from "../forms/organisation-fields";

export * from "../forms/organisation-fields";

/**
 * A Swedish organisationsnummer: ten digits, the last a Luhn check digit over the first
 * nine. Accepts "5560360793", "556036-0793" or with a space; null when it is not one.
 * Returns the canonical form NNNNNN-NNNN.
 */
export function canonicalOrgNumber(input: string): string | null {
  const digits = input.trim().replace(/[-\s]/g, "");
  if (!/^\d{10}$/.test(digits)) return null;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = Number(digits[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  if (sum % 10 !== 0) return null;
  return `${digits.slice(0, 6)}-${digits.slice(6)}`;
}

export { isCountryCode } from "./eu-vat";

const required = (key: string, max: number) =>
  z.string({ error: key }).trim().min(1, key).max(max, "organisations.errors.tooLong");

const email = z
  .string({ error: "organisations.errors.emailRequired" })
  .trim()
  .min(1, "organisations.errors.emailRequired")
  .max(EMAIL_MAX, "organisations.errors.invalidEmail")
  .pipe(z.email("organisations.errors.invalidEmail"))
  .transform((e) => e.toLowerCase());

const organisationFields = z.object({
  name: required("organisations.errors.nameRequired", ORG_NAME_MAX),
  // Checked against the invoice country below: a Swedish number has its check digit, a
  // foreign company's number is taken as its registry writes it (decision 057).
  orgNumber: z
    .string({ error: "organisations.errors.orgNumberRequired" })
    .trim()
    .min(1, "organisations.errors.orgNumberRequired")
    .max(20, "organisations.errors.orgNumberInvalid"),
  billingEmail: email,
  invoiceStreet: required("organisations.errors.streetRequired", ORG_TEXT_MAX),
  invoicePostcode: required("organisations.errors.postcodeRequired", 20),
  invoiceCity: required("organisations.errors.cityRequired", ORG_TEXT_MAX),
  invoiceCountry: z
    .string({ error: "organisations.errors.countryInvalid" })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(isCountryCode, "organisations.errors.countryInvalid"),
  vatNumber: z
    .string()
    .trim()
    .max(30, "organisations.errors.vatInvalid")
    .transform(normaliseVatNumber)
    .refine((v) => v === "" || /^[A-Z]{2}[A-Z0-9+*]{2,18}$/.test(v), "organisations.errors.vatInvalid")
    .transform((v) => (v === "" ? null : v))
    .optional()
    .transform((v) => v ?? null),
  deskContact: required("organisations.errors.deskContactRequired", DESK_CONTACT_MAX),
});

/**
 * The organisation form. In an EU member state the VAT number must have that state's
 * prefix and format (decision 027: the reverse charge rests on it); elsewhere any
 * two letters and digits, as before.
 */
export const organisationSchema = organisationFields
  .superRefine((v, ctx) => {
    if (v.vatNumber && isEuCountry(v.invoiceCountry) && !isEuVatNumberOf(v.vatNumber, v.invoiceCountry)) {
      ctx.addIssue({ code: "custom", path: ["vatNumber"], message: "organisations.errors.vatFormat" });
    }
    if (orgNumberFor(v.orgNumber, v.invoiceCountry) === null) {
      ctx.addIssue({
        code: "custom",
        path: ["orgNumber"],
        message:
          v.invoiceCountry === "SE" ? "organisations.errors.orgNumberInvalid" : "organisations.errors.orgNumberForeign",
      });
    }
  })
  .transform((v) => ({ ...v, orgNumber: orgNumberFor(v.orgNumber, v.invoiceCountry)! }));

/**
 * The organisation number as stored: in Sweden the canonical NNNNNN-NNNN (its check digit
 * checked); elsewhere letters and digits as the company's registry writes them (a UK
 * company number "01234567", a German "HRB 12345"), upper case, single spaces; null when
 * it is not a number at all.
 */
export function orgNumberFor(input: string, country: string): string | null {
  if (country === "SE") return canonicalOrgNumber(input);
  const v = input.trim().replace(/\s+/g, " ").toUpperCase();
  return /^[A-Z0-9][A-Z0-9 ./-]{1,18}[A-Z0-9]$/.test(v) && /\d/.test(v) ? v : null;
}

export type OrganisationInput = z.output<typeof organisationSchema>;

const role = z
  .enum(ORG_ROLES as [string, ...string[]], "organisations.errors.roleInvalid")
  .transform((r) => r as "admin" | "member");
const userId = z.string().trim().min(1, "organisations.errors.notFound").max(100, "organisations.errors.notFound");

export const inviteSchema = z.object({ email, role });
export const roleSchema = z.object({ userId, role });
export const memberSchema = z.object({ userId });
export const revokeSchema = z.object({
  inviteId: z.string().trim().min(1, "organisations.errors.notFound").max(100, "organisations.errors.notFound"),
});

/** Invite tokens are 32 random bytes, base64url: 43 characters. */
export function isInviteToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Organisation ids are 10 alphanumerics (like item ids). */
export function isOrganisationId(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9]{10}$/.test(value);
}

/** The user menu's scope switch: "personal" or an organisation id, and the page to go back to. */
export const scopeChoiceSchema = z.object({
  scope: z.string().trim().min(1).max(64),
  redirectTo: z.string().max(2000).optional(),
});

/**
 * Whether an organisation's billing email is confirmed (decision 028): its mailed link was
 * opened for the address it bills now. Changing the address needs a new confirmation.
 */
export function billingEmailConfirmed(org: { billingEmail: string; billingEmailConfirmed: string | null }): boolean {
  return (
    org.billingEmailConfirmed != null && org.billingEmailConfirmed.toLowerCase() === org.billingEmail.toLowerCase()
  );
}
