/**
 * The seller from the configuration (COMPANY_*), in the one shape receipts, invoices, the
 * checkout, /contact, /privacy and /terms show.
 */
import type { SellerView } from "~/lib/domain/seller";
import type { Config } from "../config.server";

export function sellerOf(config: Pick<Config, "company">): SellerView {
  const c = config.company;
  return {
    name: c.name,
    orgNr: c.orgNr,
    vatNr: c.vatNr ?? null,
    vatOnReceipts: c.vatNr != null && !c.vatExempt,
    address: c.address
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean),
    email: c.email,
    example: c.example,
  };
}
