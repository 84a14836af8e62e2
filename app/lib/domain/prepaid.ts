/**
 * A prepaid sticker's period (decision 036): the owner is offered a subscription in its
 * last 30 days — the same lead as the first reminder — not from the day of the claim,
 * when a year of prepaid time is still ahead.
 */
export const PREPAID_OFFER_LEAD_MS = 30 * 24 * 60 * 60_000;

/** Whether the "subscribe to keep it active" offer shows for an item prepaid until then. */
export function prepaidOfferDue(prepaidUntil: number | null, now: number): boolean {
  return prepaidUntil !== null && prepaidUntil > now && prepaidUntil - now <= PREPAID_OFFER_LEAD_MS;
}

/**
 * Where the offer leads: the order page itself. Not filtered to the item: a filter turns
 * the page's choice to "all unpaid items that match", which leaves a prepaid item out.
 */
export function prepaidOfferHref(): string {
  return "/order";
}
