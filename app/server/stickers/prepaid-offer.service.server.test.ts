/**
 * The prepaid line and the offer to subscribe (decision 036) on the owner's item page and
 * dashboard card: "Prepaid until …" while a prepaid sticker's months run, the link to
 * /order only in their last 30 days, nothing once they ended.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addMonths } from "~/lib/domain/pricing";
import { PREPAID_OFFER_LEAD_MS } from "~/lib/domain/prepaid";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { claimPackSticker, signUpOwner } from "../../../tests/support/service-fixtures";
import { getDashboard } from "../items/dashboard.service.server";
import { getItemPageView } from "../items/items.service.server";

vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

async function user() {
  return (await signUpOwner(deps, { verified: false, address: false, prefix: "prepaid-offer" })).id;
}

/** An owner's item claimed from a sticker of a batch prepaid for `months` (null: not prepaid). */
async function claimed(months: 6 | null) {
  const owner = await user();
  const { id } =
    months === null ? await claimPackSticker(deps, owner, null) : await claimPackSticker(deps, owner, months);
  return { owner, id };
}

async function seen(owner: string, id: string) {
  const page = await getItemPageView(deps, id, owner);
  if (page.kind !== "item" || !page.manage) throw new Error(`owner's view expected, got ${page.kind}`);
  const card = (await getDashboard(deps, owner)).items.find((i) => i.id === id)!;
  return {
    page: { until: page.manage.prepaidUntil, offer: page.manage.prepaidOffer },
    card: { until: card.prepaidUntil, offer: card.prepaidOffer },
  };
}

describe("prepaid sticker: the line and the offer to subscribe (decision 036)", () => {
  it("shows the prepaid end from the claim, and the offer only in the last 30 days", async () => {
    const { owner, id } = await claimed(6);
    const until = addMonths(deps.clock(), 6);
    expect(await seen(owner, id)).toEqual({ page: { until, offer: false }, card: { until, offer: false } });
    deps.setNow(until - PREPAID_OFFER_LEAD_MS - 60_000);
    expect(await seen(owner, id)).toEqual({ page: { until, offer: false }, card: { until, offer: false } });
    deps.setNow(until - PREPAID_OFFER_LEAD_MS);
    expect(await seen(owner, id)).toEqual({ page: { until, offer: true }, card: { until, offer: true } });
    deps.setNow(until - 60_000);
    expect(await seen(owner, id)).toEqual({ page: { until, offer: true }, card: { until, offer: true } });
  });

  it("shows neither once the prepaid period ended, nor for an unprepaid sticker", async () => {
    const prepaid = await claimed(6);
    deps.setNow(addMonths(deps.clock(), 6) + 1);
    const after = await seen(prepaid.owner, prepaid.id);
    expect(after).toEqual({ page: { until: null, offer: false }, card: { until: null, offer: false } });
    const plain = await claimed(null);
    expect(await seen(plain.owner, plain.id)).toEqual({
      page: { until: null, offer: false },
      card: { until: null, offer: false },
    });
  });
});
