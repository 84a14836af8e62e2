/** The seller's identity as pages, mails and PDFs show it. Browser-safe. */
export interface SellerView {
  name: string;
  orgNr: string;
  vatNr: string | null;
  address: string[];
  email: string;
  /** The demo's example values: every place that shows them says so. */
  example: boolean;
}
