/**
 * The seller (decision 016): on receipts, invoices, the checkout, /contact, /privacy and
 * /terms. Name, organisation number, address and email are required with Stripe in
 * production; so is the VAT number of a seller that charges VAT (decision 052): only a seller
 * below the VAT threshold, COMPANY_VAT_EXEMPT=1, has none, and receipts show VAT only
 * with a VAT number.
 */
import { z } from "zod";
import { emptyToUndefined, invalid } from "./env.server";

export const sellerEnv = {
  COMPANY_NAME: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  COMPANY_ORG_NR: z.preprocess(emptyToUndefined, z.string().max(50).optional()),
  COMPANY_VAT_NR: z.preprocess(emptyToUndefined, z.string().max(50).optional()),
  /** "1": the seller is below the VAT threshold and charges no VAT (no VAT number needed). */
  COMPANY_VAT_EXEMPT: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")),
  COMPANY_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  COMPANY_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
};

type SellerEnv = z.infer<z.ZodObject<typeof sellerEnv>>;

export interface Seller {
  name: string;
  orgNr: string;
  /** Absent below the VAT threshold. */
  vatNr?: string;
  /** COMPANY_VAT_EXEMPT=1: below the VAT threshold, no VAT charged (decision 052). */
  vatExempt: boolean;
  /** Lines separated by "\n". */
  address: string;
  email: string;
  /** Some required field is an example value (the demo): pages mark the seller as an example. */
  example: boolean;
}

/** The settings production with real payments cannot start without. */
export const REQUIRED_SELLER_VARIABLES = [
  "COMPANY_NAME",
  "COMPANY_ORG_NR",
  "COMPANY_ADDRESS",
  "COMPANY_EMAIL",
] as const;

/** What the demo shows for an unset seller field, always marked as an example. */
export const EXAMPLE_SELLER = {
  name: "Hittad Exempel AB",
  orgNr: "559000-0000",
  address: "Exempelgatan 1\n111 22 Stockholm",
  email: "seller@example.com",
} as const;

/**
 * Outside production-with-Stripe an unset required field is filled with an example value
 * and `example` is true: every page that shows the seller says so.
 */
export function sellerConfig(e: SellerEnv, sellsForReal: boolean): Seller {
  const missing = REQUIRED_SELLER_VARIABLES.filter((name) => !e[name]);
  if (sellsForReal && missing.length === 0 && e.COMPANY_VAT_EXEMPT !== "1" && !e.COMPANY_VAT_NR) {
    // A receipt with VAT must carry the seller's VAT number (mervärdesskattelagen 17 kap. 24 §).
    throw invalid(
      "COMPANY_VAT_NR",
      "required with PAYMENTS=stripe in production for a seller that charges VAT " +
        "(COMPANY_VAT_EXEMPT=1 for a seller below the VAT threshold)",
    );
  }
  if (sellsForReal && missing.length > 0) {
    // Selling without saying who sells is unlawful (e-handelslagen 8 §, distansavtalslagen 2 kap. 2 §).
    throw invalid(
      missing.join(", "),
      "required with PAYMENTS=stripe in production " +
        "(the seller's identity on receipts, invoices, the checkout and the privacy notice)",
    );
  }
  return {
    name: e.COMPANY_NAME ?? EXAMPLE_SELLER.name,
    orgNr: e.COMPANY_ORG_NR ?? EXAMPLE_SELLER.orgNr,
    vatNr: e.COMPANY_VAT_NR,
    vatExempt: e.COMPANY_VAT_EXEMPT === "1",
    // "\n" in the variable separates lines (one-line .env files).
    address: (e.COMPANY_ADDRESS ?? EXAMPLE_SELLER.address).replace(/\\n/g, "\n"),
    email: e.COMPANY_EMAIL ?? EXAMPLE_SELLER.email,
    example: missing.length > 0,
  };
}
