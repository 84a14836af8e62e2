/** The seller's identity as pages, mails and PDFs show it. Browser-safe. */
export interface SellerView {
  name: string;
  orgNr: string;
  vatNr: string | null;
  /**
   * Receipts and credit notes show VAT (net, "VAT 25 %", the reverse charge): only a seller
   * with a VAT number that charges VAT (decision 057). Without, they say no VAT is charged.
   */
  vatOnReceipts: boolean;
  address: string[];
  email: string;
  /** The demo's example values: every place that shows them says so. */
  example: boolean;
}
