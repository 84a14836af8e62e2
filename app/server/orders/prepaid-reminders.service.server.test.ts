/**
 * The mail before a prepaid sticker's months end (decision 036): sent 30 and 7 days
 * before, once per item and lead even when the job runs twice or at once, in the owner's
 * language, and not for an item a subscription already covers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { claimPackSticker, signUpOwner, type TestOwner } from "../../../tests/support/service-fixtures";
import { completeTestPayment, createOrder } from "./checkout.service.server";
import { sendPrepaidReminders } from "./prepaid-reminders.service.server";

vi.setConfig({ testTimeout: 30_000 });

const DAY = 24 * 60 * 60_000;

let deps: ServiceTestDeps;
beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(async () => {
  await deps.close();
});

const prepaidItem = (owner: TestOwner) => claimPackSticker(deps, owner.id);

const mails = (to: string) =>
  deps.db.selectFrom("mail_outbox").select(["subject", "text"]).where("to", "=", to).orderBy("createdAt").execute();

describe("reminders before a prepaid sticker's months end (decision 036)", () => {
  it("mails the owner 30 and 7 days before, once each, in their language, with the link to /order", async () => {
    const owner = await signUpOwner(deps, { language: "sv", prefix: "reminder" });
    const { until } = await prepaidItem(owner);
    deps.setNow(until - 31 * DAY);
    expect(await sendPrepaidReminders(deps)).toBe(0);
    deps.setNow(until - 30 * DAY);
    expect(await sendPrepaidReminders(deps)).toBe(1);
    expect(await sendPrepaidReminders(deps)).toBe(0);
    deps.setNow(until - 20 * DAY);
    expect(await sendPrepaidReminders(deps)).toBe(0);
    deps.setNow(until - 7 * DAY);
    expect(await sendPrepaidReminders(deps)).toBe(1);
    deps.setNow(until - DAY);
    expect(await sendPrepaidReminders(deps)).toBe(0);
    const sent = await mails(owner.email);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.subject).toContain("Ditt förbetalda Hittad-klistermärke");
    expect(sent[0]!.text).toContain(`${deps.config.baseUrl.origin}/order`);
  });

  it("sends one mail when two runs go at once", async () => {
    const owner = await signUpOwner(deps, { prefix: "reminder-race" });
    const { until } = await prepaidItem(owner);
    deps.setNow(until - 10 * DAY);
    const runs = await Promise.all([sendPrepaidReminders(deps), sendPrepaidReminders(deps)]);
    expect(runs[0]! + runs[1]!).toBe(1);
    expect(await mails(owner.email)).toHaveLength(1);
  });

  it("sends nothing for an item a subscription ordered ahead covers", async () => {
    const owner = await signUpOwner(deps, { prefix: "reminder-ordered" });
    const { id, until } = await prepaidItem(owner);
    const o = await createOrder(deps, { userId: owner.id, itemIds: [id], period: "year", lang: "en" });
    await completeTestPayment(deps, { userId: owner.id, orderId: o.id });
    const before = (await mails(owner.email)).length;
    for (const day of [30, 7]) {
      deps.setNow(until - day * DAY);
      expect(await sendPrepaidReminders(deps)).toBe(0);
    }
    expect(await mails(owner.email)).toHaveLength(before);
  });
});
