/**
 * The payer's "renewal" alert (year-alert.service.server.ts; decisions 033, 056) through the
 * real billing job: a year paid by Swish (the test provider) on an in-memory SQLite, and on
 * PostgreSQL in the database leg (SERVICE_TESTS_ON_POSTGRES=1), where two runs of the job
 * race for real. The mail itself is held by app/server/orders/swish.service.server.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import {
  alertSettingsFromForm,
  DEFAULT_ALERT_SETTINGS,
  readAlertSettings,
  type AlertSettings,
} from "~/lib/domain/alerts";
import { DAY_MS, formatDate } from "~/lib/domain/dates";
import { GSM_MAX } from "~/lib/domain/sms-text";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { lapseDueOrders } from "../orders/billing.service.server";
import { completeTestPayment, createOrder } from "../orders/checkout.service.server";
import { sendYearReminders } from "../orders/year-reminders.service.server";
import { upsertSubscription } from "../push/push.repository.server";
import { insertContact } from "../trusted-contacts/trusted-contacts.repository.server";
import { confirmPhone, setPendingPhone, writeSettings } from "./alerts.repository.server";
import { recordSmsReport } from "./alerts.service.server";
import { renderYearPush, renderYearSms } from "./year-alert.service.server";

vi.setConfig({ testTimeout: 30_000 });

const START = Date.UTC(2026, 10, 23, 12);
const ITEM: ProductInput = {
  name: "Röd cykel",
  findFee: 200,
  prodType: "other",
  contactInfo: "Ring 070-123",
  contactVisibility: "public",
  payment: "year",
  intent: "payLater",
};

let deps: ServiceTestDeps;
let seq = 0;
beforeEach(async () => {
  deps = await createServiceDeps({}, START);
});
afterEach(async () => {
  await deps.close();
});

const aNumber = () => `+46701${String(1_000_000 + ++seq).slice(1)}`;

/** An owner with an item whose year was paid by (simulated) Swish; answers the paid year's end. */
async function paidYear(language: "en" | "sv" = "sv") {
  const u = await signUpOwner(deps, { language, prefix: "yearalert" });
  const item = await createItem(deps, u.id, ITEM, language);
  const o = await createOrder(deps, {
    userId: u.id,
    itemIds: [item],
    period: "year",
    lang: "sv",
    immediateStart: true,
    payWith: "swish",
  });
  expect(await completeTestPayment(deps, { userId: u.id, orderId: o.id, phone: "070-123 45 67" })).toBe("applied");
  const row = await deps.db.selectFrom("orders").select("paidUntil").where("id", "=", o.id).executeTakeFirstOrThrow();
  return { u, item, orderId: o.id, end: Number(row.paidUntil) };
}

function settings(change: (s: AlertSettings) => void): AlertSettings {
  const s = structuredClone(DEFAULT_ALERT_SETTINGS);
  change(s);
  return s;
}

async function verifiedNumber(userId: string): Promise<string> {
  const phone = aNumber();
  await setPendingPhone(deps.db, userId, { phone, codeHash: "x", expiresAt: START + 60_000 });
  await confirmPhone(deps.db, userId, phone, START);
  return phone;
}

async function device(userId: string, label: string): Promise<string> {
  const id = randomUUID();
  await upsertSubscription(deps.db, {
    id,
    userId,
    endpoint: `https://push.example.test/${id}`,
    p256dh: "key",
    auth: "auth",
    label,
    createdAt: START,
  });
  return id;
}

const outbox = (to: string) =>
  deps.db.selectFrom("mail_outbox").selectAll().where("to", "=", to).orderBy("createdAt").execute();
const renewalDeliveries = (userId: string) =>
  deps.db
    .selectFrom("alert_deliveries")
    .selectAll()
    .where("userId", "=", userId)
    .where("event", "=", "renewal")
    .execute();
const quota = async (key: string) =>
  Number(
    (await deps.db.selectFrom("sms_quotas").select("count").where("key", "=", key).executeTakeFirst())?.count ?? 0,
  );

describe("the renewal alert by SMS", () => {
  it("goes only when the payer chose SMS for it and has a verified number, and counts against their SMS limits", async () => {
    const { u, item, orderId, end } = await paidYear("sv");
    // The default: SMS off for "renewal", however verified the number.
    const phone = await verifiedNumber(u.id);
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await outbox(phone)).toHaveLength(0);
    expect(await outbox(u.email)).not.toHaveLength(0);

    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.sms = true)),
      START,
    );
    deps.setNow(end - 6 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    const [sms] = await outbox(phone);
    expect(sms!.channel).toBe("sms");
    expect(sms!.text).toBe(
      `Hittad: året du har betalat för tar slut den ${formatDate(end, "sv")}. Förnya här: http://localhost:3000/order/${orderId}/renew`,
    );
    expect(await quota(`account:${u.id}`)).toBe(1);
    // About the payer's payment, not an item: no item's day counts it.
    expect(await quota(`item:${item}`)).toBe(0);
    expect(await renewalDeliveries(u.id)).toMatchObject([{ channel: "sms", recipientKind: "owner", status: "queued" }]);
  });

  it("goes to no number still waiting for its code", async () => {
    const { u, end } = await paidYear("en");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.sms = true)),
      START,
    );
    const phone = aNumber();
    await setPendingPhone(deps.db, u.id, { phone, codeHash: "x", expiresAt: START + 60_000 });
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await outbox(phone)).toHaveLength(0);
    expect(await renewalDeliveries(u.id)).toHaveLength(0);
  });

  it("past Hittad's day budget is recorded as not sent, and the mail still goes", async () => {
    await deps.close();
    deps = await createServiceDeps({ SMS_DAILY_BUDGET: "1" }, START);
    const { u, end } = await paidYear("en");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.sms = true)),
      START,
    );
    const phone = await verifiedNumber(u.id);
    deps.setNow(end - 29 * DAY_MS);
    const day = new Date(deps.clock()).toISOString().slice(0, 10);
    await deps.db
      .insertInto("sms_quotas")
      .values({ key: `budget:${day}`, count: 1, windowStart: deps.clock(), noticeAt: null })
      .execute();
    const mailsBefore = (await outbox(u.email)).length;
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await outbox(phone)).toHaveLength(0);
    expect(await renewalDeliveries(u.id)).toMatchObject([{ channel: "sms", status: "blocked" }]);
    expect(await outbox(u.email)).toHaveLength(mailsBefore + 1);
  });
});

describe("the renewal SMS's delivery report", () => {
  it("finds its delivery by the secret in the SMS's report URL, stored hashed as every alert SMS's", async () => {
    const { u, end } = await paidYear("en");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.sms = true)),
      START,
    );
    const phone = await verifiedNumber(u.id);
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    const [sms] = await outbox(phone);
    const url: string = JSON.parse(sms!.meta!).whendelivered;
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/sms\/report\/[A-Za-z0-9_-]{32}$/);
    const token = url.split("/").pop()!;
    // A made-up secret finds nothing and changes nothing.
    expect(await recordSmsReport(deps, "x".repeat(32), { status: "failed", delivered: null })).toBe(false);
    expect(await recordSmsReport(deps, token, { status: "delivered", delivered: null })).toBe(true);
    expect(await renewalDeliveries(u.id)).toMatchObject([
      { channel: "sms", status: "delivered", deliveredAt: expect.anything() },
    ]);
  });
});

describe("the renewal alert by push", () => {
  it("goes to each of the payer's devices only when they chose push for it", async () => {
    const { u, orderId, end } = await paidYear("en");
    const phoneDevice = await device(u.id, "Phone");
    const laptop = await device(u.id, "Laptop");
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await outbox(phoneDevice)).toHaveLength(0);

    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.push = true)),
      START,
    );
    deps.setNow(end - 6 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    const [push] = await outbox(phoneDevice);
    expect(await outbox(laptop)).toHaveLength(1);
    expect(JSON.parse(push!.text)).toEqual({
      title: `The year you paid for ends on ${formatDate(end, "en")}`,
      body: "Tap to renew your item for another year.",
      url: `http://localhost:3000/order/${orderId}/renew`,
      tag: `y-${orderId}`,
      lang: "en",
    });
  });

  it("tells of the year's end when it lapses unrenewed, once", async () => {
    const { u, orderId, end } = await paidYear("sv");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.push = s.renewal.sms = true)),
      START,
    );
    const phone = await verifiedNumber(u.id);
    const id = await device(u.id, "Telefon");
    deps.setNow(end + 3_600_000);
    expect(await lapseDueOrders(deps)).toBe(1);
    expect(await lapseDueOrders(deps)).toBe(0);
    const [sms] = await outbox(phone);
    expect(await outbox(phone)).toHaveLength(1);
    expect(sms!.text).toBe(
      `Hittad: året du har betalat för har tagit slut. Betala för ett år till: http://localhost:3000/order/${orderId}/renew`,
    );
    const pushes = await outbox(id);
    expect(pushes).toHaveLength(1);
    expect(JSON.parse(pushes[0]!.text)).toMatchObject({
      title: "Året du har betalat för har tagit slut",
      body: "Din sak är inte längre aktiv. Tryck för att betala för ett år till.",
    });
  });
});

describe("the renewal alert goes once, to the payer alone", () => {
  it("two runs of the billing job at once queue one SMS and one push, counted once", async () => {
    const { u, end } = await paidYear("en");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.push = s.renewal.sms = true)),
      START,
    );
    const phone = await verifiedNumber(u.id);
    const id = await device(u.id, "Phone");
    deps.setNow(end - 29 * DAY_MS);
    const runs = await Promise.all([sendYearReminders(deps), sendYearReminders(deps), sendYearReminders(deps)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await outbox(phone)).toHaveLength(1);
    expect(await outbox(id)).toHaveLength(1);
    expect(await quota(`account:${u.id}`)).toBe(1);
    expect(await renewalDeliveries(u.id)).toHaveLength(2);
  });

  it("a trusted contact never gets it, whatever they get of finder messages", async () => {
    const { u, end } = await paidYear("en");
    await writeSettings(
      deps.db,
      u.id,
      settings((s) => (s.renewal.push = s.renewal.sms = true)),
      START,
    );
    await verifiedNumber(u.id);
    const email = `bo-${++seq}@example.test`;
    const phone = aNumber();
    const contactId = randomUUID();
    await insertContact(deps.db, {
      id: contactId,
      userId: u.id,
      name: "Bo",
      email,
      phone,
      language: "en",
      confirmTokenHash: randomUUID(),
      confirmSentAt: START,
      confirmedAt: START,
      stoppedAt: null,
      createdAt: START,
      confirmCodeHash: null,
      confirmCodeExpiresAt: null,
      confirmCodeAttempts: 0,
      organisationId: null,
      emailConfirmedAt: START,
      phoneConfirmedAt: START,
    });
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    deps.setNow(end - 6 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    deps.setNow(end + 3_600_000);
    expect(await lapseDueOrders(deps)).toBe(1);
    expect(await outbox(email)).toHaveLength(0);
    expect(await outbox(phone)).toHaveLength(0);
    const rows = await renewalDeliveries(u.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.recipientKind === "owner" && r.contactId === null)).toBe(true);
  });
});

describe("the renewal alert's settings", () => {
  it("its mail cannot be switched off; SMS and push are off until chosen, also in settings stored before it existed", () => {
    const before = readAlertSettings(JSON.stringify({ scan: { email: false, sms: true, push: false } }));
    expect(before.renewal).toEqual({ email: true, sms: false, push: false });
    expect(before.scan).toEqual({ email: false, sms: true, push: false });
    expect(readAlertSettings(JSON.stringify({ renewal: { email: false, sms: true } })).renewal).toEqual({
      email: true,
      sms: true,
      push: false,
    });
    // A form with every box unticked (a disabled box is never sent).
    expect(alertSettingsFromForm({}).renewal).toEqual({ email: true, sms: false, push: false });
    expect(alertSettingsFromForm({ "renewal.push": "on" }).renewal).toEqual({ email: true, sms: false, push: true });
  });

  it("the mail goes even to a payer who stored the renewal email as off", async () => {
    const { u, end } = await paidYear("en");
    await deps.db
      .insertInto("alert_settings")
      .values({ userId: u.id, settings: JSON.stringify({ renewal: { email: false } }), updatedAt: START })
      .onConflict((oc) => oc.column("userId").doUpdateSet({ settings: JSON.stringify({ renewal: { email: false } }) }))
      .execute();
    const before = (await outbox(u.email)).length;
    deps.setNow(end - 29 * DAY_MS);
    expect(await sendYearReminders(deps)).toBe(1);
    expect(await outbox(u.email)).toHaveLength(before + 1);
  });
});

describe("the renewal alert's texts", () => {
  const facts = (kind: "reminder" | "ended", itemCount = 2) => ({
    orderId: "0b7f6a8e-3c2d-4e5f-9a1b-2c3d4e5f6a7b",
    kind,
    endsAt: Date.UTC(2027, 10, 30, 12),
    itemCount,
  });
  // A production-length address: the link must leave the text one SMS part.
  const config = { baseUrl: new URL("https://www.hittad-example.se") };

  it("each SMS is one GSM-7 part in English and Swedish, with the date and the renew link and nothing else", () => {
    const url = "https://www.hittad-example.se/order/0b7f6a8e-3c2d-4e5f-9a1b-2c3d4e5f6a7b/renew";
    const texts = {
      en: {
        reminder: `Hittad: the year you paid for ends on 30 November 2027. Renew it here: ${url}`,
        ended: `Hittad: the year you paid for has ended. Pay for another year: ${url}`,
      },
      sv: {
        reminder: `Hittad: året du har betalat för tar slut den 30 november 2027. Förnya här: ${url}`,
        ended: `Hittad: året du har betalat för har tagit slut. Betala för ett år till: ${url}`,
      },
    };
    for (const lang of ["en", "sv"] as const) {
      for (const kind of ["reminder", "ended"] as const) {
        const sms = renderYearSms(config, lang, facts(kind));
        expect(sms.text).toBe(texts[lang][kind]);
        expect(sms.encoding).toBe("gsm7");
        expect(sms.length).toBeLessThanOrEqual(GSM_MAX);
      }
    }
  });

  it("each push names the date or the end, counts the items, and opens the renew page, in English and Swedish", () => {
    expect(renderYearPush(config, "en", facts("reminder"))).toMatchObject({
      title: "The year you paid for ends on 30 November 2027",
      body: "Tap to renew your 2 items for another year.",
    });
    expect(renderYearPush(config, "sv", facts("reminder", 1))).toMatchObject({
      title: "Året du har betalat för tar slut den 30 november 2027",
      body: "Tryck för att förnya din sak ett år till.",
    });
    expect(renderYearPush(config, "en", facts("ended", 1))).toMatchObject({
      title: "The year you paid for has ended",
      body: "Your item is no longer active. Tap to pay for another year.",
    });
    expect(renderYearPush(config, "sv", facts("ended"))).toMatchObject({
      title: "Året du har betalat för har tagit slut",
      body: "Dina 2 saker är inte längre aktiva. Tryck för att betala för ett år till.",
      url: "https://www.hittad-example.se/order/0b7f6a8e-3c2d-4e5f-9a1b-2c3d4e5f6a7b/renew",
      tag: "y-0b7f6a8e-3c2d-4e5f-9a1b-2c3d4e5f6a7b",
    });
  });
});
