/**
 * Swedish VAT (mervärdesskatt) in our prices (decision 016): every price includes 25 % VAT,
 * so the VAT of a total is total × 25/125, rounded to the minor unit; the rest is the net
 * amount. Integers (öre, cents) only: no float drift on receipts.
 */
export const VAT_RATE_PERCENT = 25;

export function vatOfGross(totalMinor: number): { net: number; vat: number } {
  if (!Number.isSafeInteger(totalMinor) || totalMinor < 0) throw new RangeError(`bad amount: ${totalMinor}`);
  const net = Math.round((totalMinor * 100) / (100 + VAT_RATE_PERCENT));
  return { net, vat: totalMinor - net };
}

/**
 * A business document's lines without VAT (decision 038): an organisation reads net
 * lines beside "Amount excluding VAT" and the VAT added once in the total. The package's
 * net is rounded on its own; the discount takes the rounding, so the lines add up to the
 * total's net to the öre and every total stays what was charged. Amounts already without
 * VAT (the reverse charge: `vat` 0) are returned as they are.
 */
export function netLinesOfGross(a: {
  packageAmount: number;
  discountAmount: number;
  totalAmount: number;
  vatAmount: number;
}): {
  packageAmount: number;
  discountAmount: number;
} {
  if (a.vatAmount === 0) return { packageAmount: a.packageAmount, discountAmount: a.discountAmount };
  const packageAmount = vatOfGross(a.packageAmount).net;
  return { packageAmount, discountAmount: packageAmount - (a.totalAmount - a.vatAmount) };
}
