/**
 * The organisations' webhooks as services (decision 061), on an in-memory SQLite through
 * the real migrations (and PostgreSQL in the database leg): who may manage endpoints, the
 * URL rules at save, which announcements become which deliveries (one per endpoint that
 * chose the type, once however often it is announced, none for a disabled endpoint or a
 * personal item), what a payload never carries, and an endpoint failing for 3 days
 * disabled with its admins mailed once. Delivery over HTTPS is tests/integration/webhooks.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFinderMessage } from "~/lib/domain/relay";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createTestOrganisation, joinOrganisation, signUpOwner } from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { completeTestPayment, createOrder } from "../orders/checkout.service.server";
import { sendFinderMessage } from "../relay/relay.service.server";
import { setItemLost, writeScanEvents } from "../scans/scans.service.server";
import { PermanentError } from "../channels/channel.server";
import { createWebhookSender, WEBHOOK_RETRY_FOR_MS, webhookBackoffMs } from "./webhook-channel.server";
import {
  addEndpoint,
  deleteEndpoint,
  getWebhooksPage,
  resendEvent,
  sendTestEvent,
  setEndpointEnabled,
  WebhookError,
} from "./webhooks.service.server";
import { runHousekeeping } from "../jobs/jobs.service.server";
import { RETENTION_MS } from "~/lib/domain/retention";

let deps: ServiceTestDeps;

beforeEach(async () => {
  // A port nothing listens on, allowed as a local stand-in: every delivery there fails.
  deps = await createServiceDeps({ WEBHOOK_ALLOW_HOSTS: "127.0.0.1:9" });
});
afterEach(() => deps.close());

async function organisation(language: "en" | "sv" = "en") {
  const admin = await signUpOwner(deps, { language });
  const org = await createTestOrganisation(deps, admin);
  return { admin, org };
}

async function orgItem(owner: string, org: string | null) {
  const id = await createItem(
    deps,
    owner,
    {
      name: "Projektor",
      findFee: 0,
      prodType: "other",
      contactInfo: "Reception",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "en",
    org,
  );
  await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  return id;
}

const hook = (path: string) => `https://127.0.0.1:9/${path}`;

async function webhookRows() {
  return deps.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("channel", "=", "webhook")
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookError);
    return (err as WebhookError).code;
  }
  throw new Error("expected a WebhookError");
}

const scanned = (itemId: string, now: number, organisationId: string | null = null) => ({
  itemId,
  organisationId,
  itemName: "Projektor",
  lost: false,
  at: now - 1000,
  scanLang: "sv" as const,
  device: "phone" as const,
  now,
});

describe("who manages an organisation's webhooks", () => {
  it("only its admins: a plain member and an outsider are told the page does not exist", async () => {
    const { admin, org } = await organisation();
    const member = await signUpOwner(deps);
    await joinOrganisation(deps, org, member, "member");
    const outsider = await signUpOwner(deps);
    const input = { url: hook("a"), events: ["item.scanned" as const] };
    expect(await codeOf(addEndpoint(deps, member.id, org, input))).toBe("notFound");
    expect(await codeOf(addEndpoint(deps, outsider.id, org, input))).toBe("notFound");
    expect(await codeOf(getWebhooksPage(deps, member.id, org))).toBe("notFound");
    await addEndpoint(deps, admin.id, org, input);
    const page = await getWebhooksPage(deps, admin.id, org);
    expect(page.endpoints).toHaveLength(1);
    expect(page.endpoints[0]!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(page.endpoints[0]!.secret.slice(6), "base64")).toHaveLength(32);
  });
});

describe("an admin whose email is not verified", () => {
  it("cannot make Hittad post anywhere: no endpoint added, enabled, tested or resent; the page still shows, and disabling and deleting work", async () => {
    const newcomer = await signUpOwner(deps, { verified: false });
    const org = await createTestOrganisation(deps, newcomer);
    const input = { url: hook("stranger"), events: ["item.scanned" as const] };
    expect(await codeOf(addEndpoint(deps, newcomer.id, org, input))).toBe("unverified");
    expect(await webhookRows()).toHaveLength(0);
    expect((await getWebhooksPage(deps, newcomer.id, org)).emailVerified).toBe(false);
    // An endpoint a verified admin added: the unverified one can stop it, never start it.
    const colleague = await signUpOwner(deps);
    await joinOrganisation(deps, org, colleague, "admin");
    const id = await addEndpoint(deps, colleague.id, org, input);
    await sendTestEvent(deps, colleague.id, org, id);
    const sent = await webhookRows();
    expect(sent).toHaveLength(1);
    expect(await codeOf(sendTestEvent(deps, newcomer.id, org, id))).toBe("unverified");
    const eventId = sent[0]!.text;
    expect(await codeOf(resendEvent(deps, newcomer.id, org, id, eventId))).toBe("unverified");
    await setEndpointEnabled(deps, newcomer.id, org, id, false);
    expect(await codeOf(setEndpointEnabled(deps, newcomer.id, org, id, true))).toBe("unverified");
    expect(await webhookRows()).toHaveLength(1);
    await deleteEndpoint(deps, newcomer.id, org, id);
    expect((await getWebhooksPage(deps, colleague.id, org)).endpoints).toHaveLength(0);
  });
});

describe("an endpoint's URL at save", () => {
  it("must be https and resolve to public addresses unless WEBHOOK_ALLOW_HOSTS lists it", async () => {
    const { admin, org } = await organisation();
    const add = (url: string, resolve?: (h: string) => Promise<string[]>) =>
      addEndpoint(deps, admin.id, org, { url, events: ["order.paid"] }, resolve);
    expect(await codeOf(add("http://hooks.example.com/x"))).toBe("url.notHttps");
    expect(await codeOf(add("https://10.1.2.3/x"))).toBe("url.private");
    expect(await codeOf(add("https://127.0.0.1:8443/x"))).toBe("url.private");
    expect(await codeOf(add("https://[::1]/x"))).toBe("url.private");
    expect(await codeOf(add("https://intranet.example.com/x", async () => ["93.184.216.34", "192.168.1.20"]))).toBe(
      "url.private",
    );
    expect(await codeOf(add("not a url"))).toBe("url.invalid");
    await expect(add("https://hooks.example.com/x", async () => ["93.184.216.34"])).resolves.toMatch(/^we_/);
    await expect(add(hook("stand-in"))).resolves.toMatch(/^we_/);
    expect(await codeOf(addEndpoint(deps, admin.id, org, { url: hook("b"), events: [] }))).toBe("events.none");
  });
});

describe("which announcements become deliveries", () => {
  it("one per enabled endpoint that chose the type, once however often the event is announced", async () => {
    const { admin, org } = await organisation();
    const item = await orgItem(admin.id, org);
    const a = await addEndpoint(deps, admin.id, org, { url: hook("a"), events: ["item.scanned"] });
    const b = await addEndpoint(deps, admin.id, org, { url: hook("b"), events: ["order.paid", "item.scanned"] });
    await addEndpoint(deps, admin.id, org, { url: hook("c"), events: ["order.paid"] });
    const off = await addEndpoint(deps, admin.id, org, { url: hook("d"), events: ["item.scanned"] });
    await setEndpointEnabled(deps, admin.id, org, off, false);
    const now = deps.clock();
    // A scan alert's transaction that ran again (a retried flush) announces the same scan twice.
    await deps.events.emit("scanRecorded", scanned(item, now, org), deps);
    await deps.events.emit("scanRecorded", scanned(item, now, org), deps);
    const rows = await webhookRows();
    expect(rows.map((r) => r.to).sort()).toEqual([a, b].sort());
    expect(rows.every((r) => r.subject === "item.scanned" && r.account === org && r.target === "127.0.0.1:9")).toBe(
      true,
    );
    // Both endpoints carry the same event (one id), each its own message.
    expect(new Set(rows.map((r) => r.text)).size).toBe(1);
    const messages = await deps.db.selectFrom("webhook_messages").selectAll().execute();
    expect(messages).toHaveLength(2);
    const body = JSON.parse(messages[0]!.payload);
    expect(body).toMatchObject({
      id: rows[0]!.text,
      type: "item.scanned",
      data: { item: { id: item }, scan: { device: "phone" } },
    });
    // Another scan (a later alert) is another event.
    await deps.events.emit("scanRecorded", scanned(item, now + 60_000, org), deps);
    expect(await webhookRows()).toHaveLength(4);
  });

  it("a scan the log records reaches the webhooks whatever the item's alert settings, once per item per flush", async () => {
    const { admin, org } = await organisation();
    const item = await orgItem(admin.id, org);
    // No scan alerts and nobody to alert: the owner hears nothing, the organisation's system does.
    await deps.db.updateTable("products").set({ scanAlerts: 0 }).where("id", "=", item).execute();
    const endpoint = await addEndpoint(deps, admin.id, org, { url: hook("scans"), events: ["item.scanned"] });
    const now = deps.clock();
    const scan = (at: number) => ({ itemId: item, at, lang: "sv" as const, device: "phone" as const, paid: true });
    await writeScanEvents(deps, [scan(now - 3000), scan(now - 2000)]);
    const rows = await webhookRows();
    expect(rows.map((r) => [r.to, r.subject])).toEqual([[endpoint, "item.scanned"]]);
    const [message] = await deps.db.selectFrom("webhook_messages").selectAll().execute();
    expect(JSON.parse(message!.payload)).toMatchObject({
      data: { item: { id: item }, scan: { at: new Date(now - 2000).toISOString(), lost: false } },
    });
  });

  it("none for a personal item, and none for an event type no endpoint chose", async () => {
    const { admin, org } = await organisation();
    await addEndpoint(deps, admin.id, org, { url: hook("a"), events: ["item.lost"] });
    const personal = await orgItem(admin.id, null);
    await deps.events.emit("scanRecorded", scanned(personal, deps.clock()), deps);
    await setItemLost(deps, admin.id, personal, true);
    const item = await orgItem(admin.id, org);
    await deps.events.emit("scanRecorded", scanned(item, deps.clock(), org), deps);
    expect(await webhookRows()).toHaveLength(0);
    // Lost mode switched on twice is one change; switched off, not chosen.
    await setItemLost(deps, admin.id, item, true);
    await setItemLost(deps, admin.id, item, true);
    await setItemLost(deps, admin.id, item, false);
    const rows = await webhookRows();
    expect(rows.map((r) => r.subject)).toEqual(["item.lost"]);
  });

  it("a finder's message carries its text and conversation, never the finder's address", async () => {
    const { admin, org } = await organisation();
    const item = await orgItem(admin.id, org);
    await addEndpoint(deps, admin.id, org, { url: hook("a"), events: ["message.received"] });
    const form = new FormData();
    form.set("message", "Hittade projektorn i aula B");
    form.set("contact", "finder.person@example.test");
    const parsed = parseFinderMessage(form);
    if (!parsed.ok) throw new Error("did not parse");
    const { conversationId } = await sendFinderMessage(deps, item, parsed.data, {
      ip: "203.0.113.9",
      lang: "sv",
      viewerId: null,
    });
    const [message] = await deps.db.selectFrom("webhook_messages").selectAll().execute();
    const body = JSON.parse(message!.payload);
    expect(body.type).toBe("message.received");
    expect(body.data.message).toMatchObject({ conversationId, text: "Hittade projektorn i aula B", first: true });
    expect(body.data.item.id).toBe(item);
    expect(message!.payload).not.toContain("finder.person");
    expect(message!.payload).not.toContain("203.0.113.9");
  });

  it("an order's payload says what paid it (paymentMethod: card, swish), while method keeps saying checkout", async () => {
    const { admin, org } = await organisation("sv");
    await addEndpoint(deps, admin.id, org, { url: hook("orders"), events: ["order.paid"] });
    const paid = async (payWith: "card" | "swish") => {
      const item = await createItem(
        deps,
        admin.id,
        {
          name: "Projektor",
          findFee: 0,
          prodType: "other",
          contactInfo: "",
          contactVisibility: "private",
          payment: "year",
          intent: "payLater",
        },
        "sv",
        org,
      );
      const order = await createOrder(deps, {
        userId: admin.id,
        itemIds: [item],
        organisationId: org,
        period: "year",
        lang: "sv",
        payWith,
      });
      await completeTestPayment(deps, {
        userId: admin.id,
        orderId: order.id,
        ...(payWith === "swish" ? { phone: "070-123 45 67" } : {}),
      });
      return order.id;
    };
    const swish = await paid("swish");
    const card = await paid("card");
    const orders = (await deps.db.selectFrom("webhook_messages").selectAll().execute()).map(
      (m) => JSON.parse(m.payload).data.order,
    );
    expect(orders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: swish, method: "card", paymentMethod: "swish", status: "paid" }),
        expect.objectContaining({ id: card, method: "card", paymentMethod: "card", status: "paid" }),
      ]),
    );
    expect(orders).toHaveLength(2);
  });
});

describe("retries and a failing endpoint", () => {
  it("back off four times longer each time, at most 6 hours apart", () => {
    expect([1, 2, 3, 4].map((n) => webhookBackoffMs(n))).toEqual([5_000, 20_000, 80_000, 320_000]);
    expect(webhookBackoffMs(20)).toBe(6 * 60 * 60_000);
    expect(webhookBackoffMs(2, 100)).toBe(400);
  });

  it("an endpoint failing for 3 days is disabled and its admins are mailed once, each in their language", async () => {
    const { admin, org } = await organisation("sv");
    const other = await signUpOwner(deps, { language: "en" });
    await joinOrganisation(deps, org, other, "admin");
    const item = await orgItem(admin.id, org);
    const id = await addEndpoint(deps, admin.id, org, { url: hook("down"), events: ["item.found"] });
    const sender = createWebhookSender(deps);
    const t0 = deps.clock();
    await deps.events.emit("itemFound", { itemId: item, at: t0 }, deps);
    const [row] = await webhookRows();
    // Nothing listens on the port: no answer, a failure of the host (retried).
    await expect(sender.send({ ...row!, attempts: 1 })).rejects.toMatchObject({ targetDown: true });
    deps.setNow(t0 + WEBHOOK_RETRY_FOR_MS - 60_000);
    await expect(sender.send({ ...row!, attempts: 2 })).rejects.not.toBeInstanceOf(PermanentError);
    let page = await getWebhooksPage(deps, admin.id, org);
    expect(page.endpoints[0]).toMatchObject({ enabled: true, failingSince: t0 });
    const mailsBefore = await deps.db.selectFrom("mail_outbox").selectAll().where("channel", "=", "email").execute();
    deps.setNow(t0 + WEBHOOK_RETRY_FOR_MS);
    await expect(sender.send({ ...row!, attempts: 3 })).rejects.toBeInstanceOf(PermanentError);
    page = await getWebhooksPage(deps, admin.id, org);
    expect(page.endpoints[0]).toMatchObject({ id, enabled: false, disabledReason: "failing" });
    expect(page.endpoints[0]!.deliveries).toHaveLength(3);
    expect(page.endpoints[0]!.deliveries.every((d) => !d.ok && d.statusCode === null)).toBe(true);
    const mails = (await deps.db.selectFrom("mail_outbox").selectAll().where("channel", "=", "email").execute()).slice(
      mailsBefore.length,
    );
    expect(mails.map((m) => m.to).sort()).toEqual([admin.email, other.email].sort());
    expect(mails.find((m) => m.to === admin.email)!.subject).toMatch(/har stängts av/);
    expect(mails.find((m) => m.to === other.email)!.subject).toMatch(/was disabled/);
    // A disabled endpoint's deliveries fail without a request, and nobody is mailed again.
    await expect(sender.send({ ...row!, attempts: 4 })).rejects.toThrow("endpoint disabled");
    const after = await deps.db.selectFrom("mail_outbox").selectAll().where("channel", "=", "email").execute();
    expect(after).toHaveLength(mailsBefore.length + 2);
    // Enabled again, its failing is forgotten.
    await setEndpointEnabled(deps, admin.id, org, id, true);
    page = await getWebhooksPage(deps, admin.id, org);
    expect(page.endpoints[0]).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });
});

describe("retention", () => {
  it("housekeeping deletes webhook events and delivery attempts 30 days old, and keeps younger ones", async () => {
    const { admin, org } = await organisation();
    const endpoint = await addEndpoint(deps, admin.id, org, { url: hook("old"), events: ["item.lost"] });
    const now = deps.clock();
    const old = now - RETENTION_MS.webhooks - 1;
    const young = now - RETENTION_MS.webhooks + 60_000;
    for (const [eventId, at] of [
      ["ev-old", old],
      ["ev-young", young],
    ] as const) {
      await deps.db
        .insertInto("webhook_messages")
        .values({ endpointId: endpoint, eventId, eventType: "item.lost", payload: "{}", createdAt: at })
        .execute();
      await deps.db
        .insertInto("webhook_deliveries")
        .values({
          id: `d-${eventId}`,
          endpointId: endpoint,
          eventId,
          eventType: "item.lost",
          attemptedAt: at,
          statusCode: 500,
          durationMs: 5,
          ok: 0,
          error: null,
        })
        .execute();
    }
    const result = await runHousekeeping(deps, "sqlite");
    expect(result?.webhooks).toBe(2);
    const messages = await deps.db.selectFrom("webhook_messages").select("eventId").execute();
    const attempts = await deps.db.selectFrom("webhook_deliveries").select("eventId").execute();
    expect(messages.map((m) => m.eventId)).toEqual(["ev-young"]);
    expect(attempts.map((m) => m.eventId)).toEqual(["ev-young"]);
  });
});
