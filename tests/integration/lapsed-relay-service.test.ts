/**
 * "Has earned the lapsed relay" (decision 050, narrowing decision 019) as a table, on
 * SQLite and (DATABASE_URL=postgres://…) PostgreSQL, through the services that make each
 * history: an item that is not paid now keeps finders' messages and their alerts only when
 * a payment for it was kept. A refund on withdrawal (in full, or all but the days used) and
 * an invoice never paid end the service as if it had never been paid (a review finding):
 * the finder page is the spec's 'not paid' page without the form, a message is refused and
 * nobody is alerted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { parseFinderMessage } from "../../app/lib/domain/relay";
import { isItemPaid } from "../../app/lib/domain/paid";
import { addMonths } from "../../app/lib/domain/pricing";
import type { ProductInput } from "../../app/lib/forms/product-form";
import { createItem, getItemPageView } from "../../app/server/items/items.service.server";
import { findItemById } from "../../app/server/access/items.repository.server";
import { hasEarnedLapsedRelay } from "../../app/server/items/lapsed-relay.repository.server";
import { lapseDueOrders } from "../../app/server/orders/billing.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { markTestInvoicePaid, startInvoice } from "../../app/server/orders/invoice.service.server";
import { withdrawOrder } from "../../app/server/orders/withdrawal.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import { createTestDatabase, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { createServiceDeps, type ServiceTestDeps } from "../support/service-db";
import { claimPackSticker, createTestOrganisation, signUpOwner, type TestOwner } from "../support/service-fixtures";

const DAY = 24 * 60 * 60_000;
const ITEM: ProductInput = {
  name: "Blue bag",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

let tdb: TestDatabase;
let deps: ServiceTestDeps;
let now = Date.UTC(2026, 10, 23, 12);
const at = (ms: number) => {
  now = ms;
  deps.setNow(ms);
};

beforeAll(async () => {
  tdb = await createTestDatabase("lapsedrelay");
  deps = await createServiceDeps({ ...testEnv(tdb), RATE_LIMIT_DISABLED: "1", INVOICE_CREDIT_ITEMS: "5" }, now);
}, 60_000);
afterAll(async () => {
  await deps?.close();
  await tdb?.drop();
});

/** A personal card order for `item`, paid now in the test provider. */
async function payByCard(owner: TestOwner, item: string, immediateStart = true) {
  const order = await createOrder(deps, {
    userId: owner.id,
    itemIds: [item],
    period: "year",
    lang: "en",
    immediateStart,
  });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  return order.id;
}

/** The lapse job, a year and a day on: a subscription nobody renewed ends. */
async function yearLater() {
  at(now + 366 * DAY);
  await lapseDueOrders(deps);
}

async function personalItem(owner: TestOwner) {
  return createItem(deps, owner.id, ITEM, "en");
}

interface History {
  label: string;
  /** Makes the history; answers the item, not paid any more. */
  make(owner: TestOwner): Promise<string>;
  earned: boolean;
}

const HISTORIES: History[] = [
  { label: "never paid", make: personalItem, earned: false },
  {
    label: "paid by card for a year, not renewed (decision 019)",
    make: async (owner) => {
      const item = await personalItem(owner);
      await payByCard(owner, item);
      await yearLater();
      return item;
    },
    earned: true,
  },
  {
    label: "paid by card, withdrawn the same day: everything refunded",
    make: async (owner) => {
      const item = await personalItem(owner);
      const order = await payByCard(owner, item, false);
      await withdrawOrder(deps, { userId: owner.id, orderId: order });
      return item;
    },
    earned: false,
  },
  {
    label: "paid by card, withdrawn after 3 days: all but the days used refunded",
    make: async (owner) => {
      const item = await personalItem(owner);
      const order = await payByCard(owner, item);
      at(now + 3 * DAY + 5 * 60 * 60_000);
      await withdrawOrder(deps, { userId: owner.id, orderId: order });
      return item;
    },
    earned: false,
  },
  {
    label: "paid for a year, not renewed, then a new order withdrawn: the first year still counts",
    make: async (owner) => {
      const item = await personalItem(owner);
      await payByCard(owner, item);
      await yearLater();
      const again = await payByCard(owner, item);
      await withdrawOrder(deps, { userId: owner.id, orderId: again });
      return item;
    },
    earned: true,
  },
  {
    label: "an organisation's invoice never paid: lapsed after its due date and grace",
    make: async (owner) => {
      const org = await createTestOrganisation(deps, owner);
      const item = await createItem(deps, owner.id, ITEM, "en", org);
      await startInvoice(deps, { userId: owner.id, itemIds: [item], organisationId: org, period: "year", lang: "en" });
      at(now + 60 * DAY);
      await lapseDueOrders(deps);
      return item;
    },
    earned: false,
  },
  {
    label: "an organisation's invoice paid, not renewed",
    make: async (owner) => {
      const org = await createTestOrganisation(deps, owner);
      const item = await createItem(deps, owner.id, ITEM, "en", org);
      const { orderId } = await startInvoice(deps, {
        userId: owner.id,
        itemIds: [item],
        organisationId: org,
        period: "year",
        lang: "en",
      });
      await markTestInvoicePaid(deps, { userId: owner.id, orderId });
      await yearLater();
      return item;
    },
    earned: true,
  },
  {
    label: "claimed from a prepaid sticker pack, its six months over (decision 036)",
    make: async (owner) => {
      const { id } = await claimPackSticker(deps, owner.id, 6);
      at(addMonths(now, 6) + DAY);
      return id;
    },
    earned: true,
  },
  {
    label: "claimed from a pack sold without months, never paid",
    make: async (owner) => (await claimPackSticker(deps, owner.id, null)).id,
    earned: false,
  },
];

function finderMessage(text: string) {
  const form = new FormData();
  form.set("message", text);
  const parsed = parseFinderMessage(form);
  if (!parsed.ok) throw new Error("the message did not parse");
  return parsed.data;
}

const alertsTo = (email: string) =>
  deps.db.selectFrom("mail_outbox").select("text").where("to", "=", email).where("text", "like", "%Seen at%").execute();

describe(`who has earned the lapsed relay, on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  for (const h of HISTORIES) {
    it(`${h.label}: ${h.earned ? "keeps" : "loses"} the relay and its alerts`, async () => {
      const owner = await signUpOwner(deps, { prefix: "lapsed" });
      const item = await h.make(owner);
      expect(isItemPaid((await findItemById(deps.db, item))!, now), "paid now").toBe(false);
      expect(await hasEarnedLapsedRelay(deps.db, item)).toBe(h.earned);
      // The finder page: the spec's 'not paid', with the message form only when earned.
      expect(await getItemPageView(deps, item, null)).toMatchObject({ kind: "notPaid", canMessage: h.earned });
      // A message (the form forged where there is none) is relayed, and alerts fan out, only when earned.
      const sent = sendFinderMessage(deps, item, finderMessage("Seen at the station"), {
        ip: "203.0.113.9",
        lang: "en",
        viewerId: null,
      });
      if (h.earned) await expect(sent).resolves.toMatchObject({ token: expect.any(String) });
      else await expect(sent).rejects.toMatchObject({ code: "notFound" });
      expect(await alertsTo(owner.email)).toHaveLength(h.earned ? 1 : 0);
    });
  }
});
