/**
 * Finders who only have SMS (decision 055), through the real migrations (SQLite; PostgreSQL
 * with SERVICE_TESTS_ON_POSTGRES=1): 46elks' webhook as the service sees it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { confirmPhone, setPendingPhone } from "../alerts/alerts.repository.server";
import { recordSmsReport } from "../alerts/alerts.service.server";
import { reportTokenHash } from "../alerts/owner-alert.server";
import { createItem } from "../items/items.service.server";
import { readConversations } from "../account/privacy.repository.server";
import { listOwnerConversations, openOwnerConversation, replyAsOwner } from "../relay/relay.service.server";
import { receiveElksSms, type WebhookAnswer } from "./sms-finder.service.server";

const SECRET = "test-webhook-secret-0123456789abcdef";
const NUMBER = "+46766861000";
const FINDER = "+46709876543";
const OWNER_PHONE = "+46701112233";

let deps: ServiceTestDeps;
let n = 0;
let smsId = 0;

async function owner() {
  const email = `sms-owner-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Olle Ägare", email, password: "pw-Secret-123!", language: "sv" },
  });
  await deps.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
  return { id: user.id, email };
}

async function withPhone(userId: string, phone = OWNER_PHONE) {
  await setPendingPhone(deps.db, userId, { phone, codeHash: "x", expiresAt: deps.clock() + 60_000 });
  await confirmPhone(deps.db, userId, phone, deps.clock());
}

async function item(ownerId: string, paid = true) {
  const id = await createItem(
    deps,
    ownerId,
    {
      name: "Blå cykel",
      findFee: 200,
      prodType: "other",
      contactInfo: "070-123 45 67",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  if (paid) await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  const row = await deps.db.selectFrom("products").select("code").where("id", "=", id).executeTakeFirstOrThrow();
  return { id, code: row.code };
}

/** "K7M29QXHR" → "k7m 29q-xhr": how a finder might type it. */
const typed = (code: string) => `${code.slice(0, 3).toLowerCase()} ${code.slice(3, 6)}-${code.slice(6)}`;

function sms(fields: { from?: string; message: string; id?: string }, secret: string | null = SECRET) {
  const form = new URLSearchParams({
    id: fields.id ?? `s${++smsId}`,
    from: fields.from ?? FINDER,
    to: NUMBER,
    message: fields.message,
    direction: "incoming",
    created: "2026-11-23 12:00:00.000000",
  });
  return receiveElksSms(deps, secret, form);
}

const replyOf = (a: WebhookAnswer) => (a.status === 200 ? a.reply : null);
const messages = () => deps.db.selectFrom("conversation_messages").selectAll().orderBy("createdAt").execute();
const smsOutbox = () =>
  deps.db.selectFrom("mail_outbox").selectAll().where("channel", "=", "sms").orderBy("createdAt").execute();

beforeEach(async () => {
  deps = await createServiceDeps({ SMS_NUMBER: NUMBER, ELKS_WEBHOOK_SECRET: SECRET });
});
afterEach(() => deps.close());

describe("the webhook's secret", () => {
  it("a wrong or missing secret is 404 and stores nothing", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    expect(await sms({ message: `${it_.code} hittade`, id: "w1" }, "wrong-secret")).toEqual({ status: 404 });
    expect(await sms({ message: `${it_.code} hittade`, id: "w2" }, null)).toEqual({ status: 404 });
    expect(await messages()).toHaveLength(0);
    expect(await deps.db.selectFrom("elks_incoming").selectAll().execute()).toHaveLength(0);
  });

  it("without SMS_NUMBER the webhook does not exist (404), whatever the secret", async () => {
    await deps.close();
    deps = await createServiceDeps({ ELKS_WEBHOOK_SECRET: SECRET });
    expect(await sms({ message: "hello" })).toEqual({ status: 404 });
  }, 30_000);
});

describe("finder → owner", () => {
  it("a code in any spacing or case opens a conversation, alerts the owner by mail and SMS from SMS_NUMBER, and answers the finder once in Swedish", async () => {
    const o = await owner();
    await withPhone(o.id);
    const it_ = await item(o.id);
    const answer = await sms({ message: `${typed(it_.code)} hittade din cykel vid Centralen` });
    expect(replyOf(answer)).toMatch(/^Hittad: ägaren har fått ditt meddelande/);
    const [m] = await messages();
    expect(m?.text).toBe("hittade din cykel vid Centralen");
    const conv = await deps.db.selectFrom("conversations").selectAll().executeTakeFirstOrThrow();
    expect(conv.finderPhone).toBe(FINDER);
    expect(conv.finderContact).toBe("");
    expect(conv.smsRef).toMatch(/^\d{4}$/);
    const mail = await deps.db.selectFrom("mail_outbox").selectAll().where("channel", "=", "email").execute();
    expect(mail.map((r) => r.to)).toContain(o.email);
    expect(mail.map((r) => r.text).join()).not.toContain(FINDER.slice(3));
    const [alert] = await smsOutbox();
    expect(alert?.to).toBe(OWNER_PHONE);
    expect(alert?.text).toContain(`#${conv.smsRef}`);
    expect(alert?.text).not.toContain(FINDER.slice(3));
    expect(JSON.parse(alert?.meta ?? "{}").from).toBe(NUMBER);
  });

  it("a non-Swedish number is answered in English", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    expect(replyOf(await sms({ from: "+4791234567", message: `${it_.code} found it` }))).toMatch(
      /^Hittad: the owner has your message/,
    );
  });

  it("46elks' resends of one id store one message and get the same reply", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    const first = await sms({ id: "same", message: `${it_.code} hittade` });
    const again = await sms({ id: "same", message: `${it_.code} hittade` });
    expect(again).toEqual(first);
    expect(await messages()).toHaveLength(1);
  });

  it("a resend that arrives while the first is still being handled gets 503, so 46elks sends it again; a handled one without a reply gets 204 again", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    // The first handling has claimed the id and not finished.
    await deps.db.insertInto("elks_incoming").values({ id: "busy", receivedAt: deps.clock(), reply: null }).execute();
    expect(await sms({ id: "busy", message: `${it_.code} hittade` })).toEqual({ status: 503 });
    expect(await messages()).toHaveLength(0);
    await sms({ id: "first", message: `${it_.code} hittade` });
    expect(await sms({ id: "later", message: "Den står vid cykelstället" })).toEqual({ status: 204 });
    expect(await sms({ id: "later", message: "Den står vid cykelstället" })).toEqual({ status: 204 });
    expect(await messages()).toHaveLength(2);
  });

  it("an owner's #ref that two of their conversations share names neither: the owner is told how to answer", async () => {
    const o = await owner();
    await withPhone(o.id);
    const a = await item(o.id);
    const b = await item(o.id);
    await sms({ from: "+46700000001", message: `${a.code} hittade A` });
    await sms({ from: "+46700000002", message: `${b.code} hittade B` });
    await deps.db.updateTable("conversations").set({ smsRef: "4821" }).execute();
    const answer = await sms({ from: OWNER_PHONE, message: "#4821 Tack, jag hämtar den" });
    expect((await messages()).map((m) => m.text)).not.toContain("Tack, jag hämtar den");
    expect(answer.status).toBe(200);
  });

  it("a number that is both an owner's and a finder's continues its finder conversation without a #ref, never answering another finder", async () => {
    const o = await owner();
    await withPhone(o.id);
    const own = await item(o.id);
    await sms({ from: "+46700000003", message: `${own.code} hittade din` });
    const other = await owner();
    const theirs = await item(other.id);
    await sms({ from: OWNER_PHONE, message: `${theirs.code} jag hittade din` });
    await sms({ from: OWNER_PHONE, message: "Den står vid stationen" });
    const rows = await deps.db
      .selectFrom("conversation_messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversationId")
      .select(["m.text", "c.itemId"])
      .where("m.text", "=", "Den står vid stationen")
      .execute();
    expect(rows).toEqual([{ text: "Den står vid stationen", itemId: theirs.id }]);
  });

  it("a later SMS without a code continues the number's latest conversation, without a reply", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    expect(await sms({ message: "Den står vid cykelstället" })).toEqual({ status: 204 });
    expect((await messages()).map((m) => m.text)).toEqual(["hittade", "Den står vid cykelstället"]);
    expect(await deps.db.selectFrom("conversations").selectAll().execute()).toHaveLength(1);
  });

  it("an unknown or unpaid code gets one short help text a day that says nothing about the item or owner", async () => {
    const o = await owner();
    const unpaid = await item(o.id, false);
    const help = replyOf(await sms({ message: `${unpaid.code} hittade` }));
    expect(help).toMatch(/polisen/);
    expect(help).not.toContain("cykel");
    expect(help).not.toContain("Olle");
    expect(await sms({ message: "ABC DEF GHJ hej" })).toEqual({ status: 204 });
    expect(await messages()).toHaveLength(0);
  });
});

describe("abuse and cost", () => {
  it("11 SMS in an hour from one number store 10 messages and the 11th gets no reply", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    const answers: WebhookAnswer[] = [];
    for (let i = 0; i < 11; i++) answers.push(await sms({ message: `${it_.code} meddelande ${i}` }));
    expect(await messages()).toHaveLength(10);
    expect(answers[10]).toEqual({ status: 204 });
    deps.setNow(deps.clock() + 61 * 60_000);
    expect((await sms({ message: "en timme senare" })).status).toBe(204);
    expect(await messages()).toHaveLength(11);
  });

  it("STOP stops every SMS to the number and is answered once", async () => {
    const o = await owner();
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    expect(replyOf(await sms({ message: "STOP" }))).toBe("Hittad: du får inga fler sms från oss.");
    expect(await sms({ message: "stopp" })).toEqual({ status: 204 });
    const conv = (await listOwnerConversations(deps, o.id))[0]!;
    await replyAsOwner(deps, o.id, conv.id, "Tack!");
    expect((await smsOutbox()).filter((r) => r.to === FINDER)).toHaveLength(0);
    // A new code SMS is stored for the owner, but the finder gets no reply.
    expect(await sms({ message: `${it_.code} igen` })).toEqual({ status: 204 });
  });

  it("the item's SMS guard counts the finder's reply: past SMS_LIMIT_PER_ITEM_DAY no reply goes", async () => {
    await deps.close();
    deps = await createServiceDeps({ SMS_NUMBER: NUMBER, ELKS_WEBHOOK_SECRET: SECRET, SMS_LIMIT_PER_ITEM_DAY: "0" });
    const o = await owner();
    const it_ = await item(o.id);
    expect(await sms({ message: `${it_.code} hittade` })).toEqual({ status: 204 });
    expect(await messages()).toHaveLength(1);
  }, 30_000);
});

describe("owner → finder", () => {
  it("the owner's web answer goes to the finder by SMS from SMS_NUMBER, without the owner's number", async () => {
    const o = await owner();
    await withPhone(o.id);
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    const conv = (await listOwnerConversations(deps, o.id))[0]!;
    expect(conv.bySms).toBe(true);
    await replyAsOwner(deps, o.id, conv.id, "Tack! Ring mig inte, jag hämtar den.");
    const toFinder = (await smsOutbox()).filter((r) => r.to === FINDER);
    expect(toFinder).toHaveLength(1);
    expect(toFinder[0]?.text).toContain("Tack! Ring mig inte");
    expect(toFinder[0]?.text).not.toContain(OWNER_PHONE.slice(3));
    expect(JSON.parse(toFinder[0]?.meta ?? "{}").from).toBe(NUMBER);
  });

  it("the owner answers by SMS with the reference; the finder gets it; neither number shows the other side", async () => {
    const o = await owner();
    await withPhone(o.id);
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    const ref = (await deps.db.selectFrom("conversations").select("smsRef").executeTakeFirstOrThrow()).smsRef;
    expect(await sms({ from: OWNER_PHONE, message: `#${ref} Tack, jag hämtar den i kväll` })).toEqual({
      status: 204,
    });
    expect((await messages()).map((m) => [m.author, m.text])).toEqual([
      ["finder", "hittade"],
      ["owner", "Tack, jag hämtar den i kväll"],
    ]);
    const toFinder = (await smsOutbox()).filter((r) => r.to === FINDER);
    expect(toFinder.map((r) => r.text).join()).toContain("jag hämtar den i kväll");
    const conv = (await listOwnerConversations(deps, o.id))[0]!;
    const seen = JSON.stringify([await openOwnerConversation(deps, o.id, conv.id), conv]);
    expect(seen).not.toContain(FINDER.slice(3));
    const exported = JSON.stringify(await readConversations(deps.db, o.id));
    expect(exported).toContain("a finder by SMS");
    expect(exported).not.toContain(FINDER.slice(3));
  });

  it("without a reference, an owner's SMS goes to their only open conversation", async () => {
    const o = await owner();
    await withPhone(o.id);
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    await sms({ from: OWNER_PHONE, message: "Tack!" });
    expect((await messages()).map((m) => m.author)).toEqual(["finder", "owner"]);
  });
});

describe("delivery reports", () => {
  it("every status 46elks documents is recorded (sent, delivered, failed); a late sent takes nothing back", async () => {
    const o = await owner();
    await withPhone(o.id);
    const it_ = await item(o.id);
    await sms({ message: `${it_.code} hittade` });
    const token = "report-token-000000000000000";
    await deps.db
      .updateTable("alert_deliveries")
      .set({ reportTokenHash: reportTokenHash(token) })
      .where("channel", "=", "sms")
      .execute();
    const status = async () =>
      (
        await deps.db
          .selectFrom("alert_deliveries")
          .select("status")
          .where("channel", "=", "sms")
          .executeTakeFirstOrThrow()
      ).status;
    expect(await recordSmsReport(deps, token, { status: "sent", delivered: null })).toBe(true);
    expect(await status()).toBe("sent");
    expect(await recordSmsReport(deps, token, { status: "delivered", delivered: "2026-11-23T12:01:00.000000" })).toBe(
      true,
    );
    expect(await recordSmsReport(deps, token, { status: "sent", delivered: null })).toBe(true);
    expect(await status()).toBe("delivered");
    expect(await recordSmsReport(deps, token, { status: "queued-someday", delivered: null })).toBe(true);
    expect(await status()).toBe("delivered");
    await deps.db.updateTable("alert_deliveries").set({ status: "sent" }).where("channel", "=", "sms").execute();
    expect(await recordSmsReport(deps, token, { status: "failed", delivered: null })).toBe(true);
    expect(await status()).toBe("failed");
    expect(await recordSmsReport(deps, "no-such-token-00000000000", { status: "sent", delivered: null })).toBe(false);
  });
});
