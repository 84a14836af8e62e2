/**
 * Stripe refuses a Checkout trial ending less than 48 hours after the session is made; the
 * margin covers the time until Stripe checks it (decision 036).
 */
export const STRIPE_TRIAL_MIN_MS = 48 * 60 * 60_000 + 10 * 60_000;

/**
 * When Stripe first charges an order placed ahead (its trial end): the prepaid end, or, in
 * the prepaid months' last 48 hours, 48 hours from now (decision 036: the owner gets up to
 * two days free rather than paying any day twice or being refused). Pure, so the payment
 * provider can use it without importing the order services (no import cycle, decision 039).
 */
export function stripeFirstChargeAt(startsAt: number, now: number): number {
  return Math.max(startsAt, now + STRIPE_TRIAL_MIN_MS);
}
