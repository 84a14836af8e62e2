/**
 * The carrier's tracking page for a parcel (decision 032). Stickers go by PostNord,
 * whose tracking page takes the number in the query; the page's language follows ours.
 * Browser-safe.
 */
export const CARRIER = "PostNord";

export function trackingUrl(trackingNumber: string, lang: string): string {
  const number = trackingNumber.replace(/\s+/g, "");
  return `https://tracking.postnord.com/${lang === "sv" ? "se" : "en"}/?id=${encodeURIComponent(number)}`;
}
