/**
 * The consumer's withdrawal over HTTP (decision 041), on SQLite and, with
 * DATABASE_URL=postgres://…, on PostgreSQL: two confirmations sent at once (two tabs, a
 * double click without JavaScript) withdraw and refund once, the other is told it is done;
 * after the 14 days the page answers with the reason in both languages (409), never a 500.
 * The rules themselves are service tests (withdrawal.service.server.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, usingPostgres, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { httpClient } from "../support/http";
import { startServer, type TestServer } from "../support/server";
import { createUser, type TestUser } from "../support/users";

const DAY = 24 * 60 * 60_000;

describe(`withdrawal over HTTP on ${usingPostgres() ? "PostgreSQL" : "SQLite"}`, () => {
  let db: TestDatabase;
  let server: TestServer;
  let rt: Runtime;
  const { get, post } = httpClient(() => server.url);

  beforeAll(async () => {
    db = await createTestDatabase("withdrawal");
    const env = testEnv(db, { RATE_LIMIT_DISABLED: "1" });
    server = await startServer(env);
    rt = await createTestRuntime({ ...env, BASE_URL: server.url });
  });
  afterAll(async () => {
    await server?.stop();
    await rt?.database.close();
    await db?.drop();
  });

  async function paid(): Promise<{ u: TestUser; orderId: string; item: string }> {
    const u = await createUser(rt, { name: "Wilma Withdraw" });
    const deps = depsOf(rt);
    await keepOrderAddress(
      deps,
      u.id,
      {
        firstname: "Wilma",
        lastname: "Withdraw",
        email: u.email,
        co: "",
        address: "Storgatan 1",
        address2: "",
        city: "Uppsala",
        state: "",
        zip: "753 20",
        country: "Sweden",
      },
      false,
    );
    const item = await createItem(
      deps,
      u.id,
      { name: "Green bike", findFee: 100, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    const order = await createOrder(deps, {
      userId: u.id,
      itemIds: [item],
      period: "year",
      lang: "en",
      immediateStart: true,
    });
    await completeTestPayment(deps, { userId: u.id, orderId: order.id });
    return { u, orderId: order.id, item };
  }

  it("a withdrawn order's item is as never paid for finders at once, its cached finder page too (issue #43)", async () => {
    const { u, orderId, item } = await paid();
    const anon = { cookie: "ConsentApproved=true" };
    // Twice: the second answer is the finder-page cache's.
    for (let i = 0; i < 2; i++) expect(await (await get(`/${item}`, anon)).text()).toContain('name="message"');
    expect((await post(`/order/${orderId}/withdraw`, {}, { cookie: u.cookie })).status).toBe(302);
    for (let i = 0; i < 2; i++) {
      const html = await (await get(`/${item}`, anon)).text();
      expect(html).toContain("This item is not paid.");
      expect(html).not.toContain('name="message"');
    }
    expect((await post(`/${item}`, { message: "Hittade den" }, { ...anon, ip: "198.51.100.43" })).status).toBe(404);
  });

  it("two confirmations at once withdraw and refund once; the other is told it is withdrawn (409)", async () => {
    const { u, orderId } = await paid();
    const [a, b] = await Promise.all([
      post(`/order/${orderId}/withdraw`, {}, { cookie: u.cookie }),
      post(`/order/${orderId}/withdraw`, {}, { cookie: u.cookie }),
    ]);
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    // The other tab's page shows what happened (decision 051), not an error to act on.
    const refused = a.status === 409 ? a : b;
    const html = await refused.text();
    expect(html).toContain("You have withdrawn from this purchase");
    expect(html).not.toContain("Keep my subscription");
    const mails = await rt.database.db
      .selectFrom("mail_outbox")
      .select("subject")
      .where("to", "=", u.email)
      .where("subject", "=", "You have withdrawn from your order")
      .execute();
    expect(mails).toHaveLength(1);
    const row = await rt.database.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(Number(row.refundAmount)).toBe(Number(row.totalAmount));
  });

  it("revisiting the withdraw page shows the withdrawn state with the credit note, in both languages (decision 051)", async () => {
    const { u, orderId } = await paid();
    expect((await post(`/order/${orderId}/withdraw`, {}, { cookie: u.cookie })).status).toBe(302);
    const en = await get(`/order/${orderId}/withdraw`, { cookie: u.cookie });
    expect(en.status).toBe(200);
    const html = await en.text();
    expect(html).toContain("You have withdrawn from this purchase");
    expect(html).toContain("Everything you paid,");
    expect(html).toMatch(/Download credit note no\. \d+ \(PDF\)/);
    expect(html).not.toContain("Keep my subscription");
    expect(html).not.toContain('role="alert"');
    const sv = await (await get(`/order/${orderId}/withdraw`, { cookie: u.cookie, lang: "sv" })).text();
    expect(sv).toContain("Du har ångrat det här köpet");
    expect(sv).toMatch(/Ladda ner kreditfaktura nr \d+ \(PDF\)/);
    const pdf = await get(`/order/${orderId}/credit-note.pdf`, { cookie: u.cookie });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const stranger = await createUser(rt, { name: "Stranger" });
    expect((await get(`/order/${orderId}/credit-note.pdf`, { cookie: stranger.cookie })).status).toBe(404);
  });

  it("after 14 days the page and the confirmation answer with the reason, in both languages", async () => {
    const { u, orderId } = await paid();
    // Paid 25 days ago: past the 14 days even when the 14th fell on a holiday weekend.
    await rt.database.db
      .updateTable("orders")
      .set({ paidAt: Date.now() - 25 * DAY })
      .where("id", "=", orderId)
      .execute();
    const en = await get(`/order/${orderId}/withdraw`, { cookie: u.cookie });
    expect(en.status).toBe(409);
    expect(await en.text()).toContain("The 14 days in which you could withdraw from this order have passed.");
    const sv = await post(`/order/${orderId}/withdraw`, {}, { cookie: u.cookie, lang: "sv" });
    expect(sv.status).toBe(409);
    expect(await sv.text()).toContain("De 14 dagarna då du kunde ångra den här beställningen har gått.");
    const row = await rt.database.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(row.withdrawnAt).toBeNull();
  });
});
