/**
 * Swedish VAT (mervärdesskatt) in our prices (issue #16): every price includes 25 % VAT,
 * so the VAT of a total is total × 25/125, rounded to the minor unit; the rest is the net
 * amount. Integers (öre, cents) only: no float drift on receipts.
 */
export const VAT_RATE_PERCENT = 25;

export function vatOfGross(totalMinor: number): { net: number; vat: number } {
  if (!Number.isSafeInteger(totalMinor) || totalMinor < 0) throw new RangeError(`bad amount: ${totalMinor}`);
  const net = Math.round((totalMinor * 100) / (100 + VAT_RATE_PERCENT));
  return { net, vat: totalMinor - net };
}
