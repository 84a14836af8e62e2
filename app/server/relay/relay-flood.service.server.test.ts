/**
 * The relay's limits on an in-memory SQLite through the real migrations (decision 011):
 * database counters per sender and item, and a flood of finder messages that asks for the
 * captcha and sends the owner digests instead of refusing everyone (decision 029).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFinderMessage, type FinderMessageInput } from "~/lib/domain/relay";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createItem } from "../items/items.service.server";
import { startRecaptchaStandIn, type RecaptchaStandIn } from "../../../tests/support/recaptcha";
import { sendDueDigests } from "./digest.service.server";
import { relayErrors } from "./relay.http.server";
import { isRelayFlooded, countOwnerUnread, RelayError, sendFinderMessage } from "./relay.service.server";

let deps: ServiceTestDeps;
let n = 0;

async function user(language: "en" | "sv" = "en", verified = true) {
  const email = `relay-${++n}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Olle Ägare", email, password: "pw-Secret-123!", language },
  });
  if (verified) await deps.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
  return { id: user.id, email };
}

async function paidItem(owner: string, contactVisibility: "public" | "private" = "private") {
  const id = await createItem(
    deps,
    owner,
    {
      name: "Blå ryggsäck",
      findFee: 200,
      prodType: "other",
      contactInfo: "070-123 45 67, olle@example.test",
      contactVisibility,
      payment: "year",
      intent: "payLater",
    },
    "sv",
  );
  await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
  return id;
}

function input(fields: Record<string, string>): FinderMessageInput {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const parsed = parseFinderMessage(form);
  if (!parsed.ok) throw new Error(`did not parse: ${JSON.stringify(parsed.fieldErrors)}`);
  return parsed.data;
}

const meta = (ip = "203.0.113.7") => ({ ip, lang: "en" as const, viewerId: null });

async function codeOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RelayError);
    return (err as RelayError).code;
  }
  throw new Error("expected a RelayError");
}

const outbox = () => deps.db.selectFrom("mail_outbox").selectAll().orderBy("createdAt").orderBy("id").execute();

beforeEach(async () => {
  deps = await createServiceDeps();
});
afterEach(() => deps.close());

describe("rate limits (database counters)", () => {
  it("the sixth message from one IP within 15 minutes is refused (429), another IP still passes", async () => {
    const limited = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
    const prev = deps;
    deps = limited;
    try {
      const owner = await user();
      const id = await paidItem(owner.id);
      for (let i = 0; i < 5; i++) await sendFinderMessage(deps, id, input({ message: `m${i}`, contact: "" }), meta());
      expect(await codeOf(sendFinderMessage(deps, id, input({ message: "m6", contact: "" }), meta()))).toBe(
        "rateLimited",
      );
      expect(relayErrors.rateLimited.status).toBe(429);
      await sendFinderMessage(deps, id, input({ message: "other ip", contact: "" }), meta("198.51.100.1"));
    } finally {
      await limited.close();
      deps = prev;
    }
  });
});

describe("a flood of finder messages (issue #29)", () => {
  let standIn: RecaptchaStandIn;
  let tokens = 0;
  const good = () => `good-${++tokens}`;
  const hour = 60 * 60_000;
  beforeEach(async () => {
    standIn = await startRecaptchaStandIn();
    await deps.close();
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0", ...standIn.env });
  });
  afterEach(() => standIn.close());

  let ipN = 0;
  const nextIp = () => meta(`198.51.${Math.floor(++ipN / 250)}.${ipN % 250}`);
  const noScript = (message: string) => input({ message, contact: "" });
  const solved = (message: string) => input({ message, contact: "", js: "1", captchaToken: good() });
  const ownerMails = async (email: string) => (await outbox()).filter((m) => m.to === email);

  it("past ten messages an hour asks every sender for the captcha instead of refusing everyone", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    for (let i = 0; i < 10; i++) await sendFinderMessage(deps, id, noScript(`m${i}`), nextIp());
    // Without JavaScript there is no captcha to send: refused with the page's explanation.
    expect(await codeOf(sendFinderMessage(deps, id, noScript("no script"), nextIp()))).toBe("flooded");
    expect(relayErrors.flooded.status).toBe(429);
    expect(await codeOf(sendFinderMessage(deps, id, input({ message: "js", contact: "", js: "1" }), nextIp()))).toBe(
      "captcha.missing",
    );
    // However long the flood goes on, an honest finder with a solved captcha gets through.
    for (let i = 0; i < 30; i++) await codeOf(sendFinderMessage(deps, id, noScript(`bot ${i}`), nextIp()));
    await sendFinderMessage(deps, id, solved("I found your bag at the station"), nextIp());
    expect(await isRelayFlooded(deps, id)).toBe(true);
    // The next hour starts without the captcha again.
    deps.setNow(deps.clock() + hour + 1);
    expect(await isRelayFlooded(deps, id)).toBe(false);
    await sendFinderMessage(deps, id, noScript("an hour later"), nextIp());
  });

  it("stores at most 100 messages per item and hour, captcha or not; refused attempts do not use that up", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    for (let i = 0; i < 10; i++) await sendFinderMessage(deps, id, noScript(`m${i}`), nextIp());
    for (let i = 10; i < 100; i++) {
      await sendFinderMessage(deps, id, solved(`m${i}`), nextIp());
      // Bots without a captcha in between count for nothing here.
      expect(await codeOf(sendFinderMessage(deps, id, noScript(`bot ${i}`), nextIp()))).toBe("flooded");
    }
    expect(await codeOf(sendFinderMessage(deps, id, solved("one too many"), nextIp()))).toBe("rateLimited");
    expect(await deps.db.selectFrom("conversations").where("itemId", "=", id).selectAll().execute()).toHaveLength(100);
  });

  it("sends the owner one digest per quarter hour while it lasts, with the count and /messages, not a mail each", async () => {
    const owner = await user("sv");
    const id = await paidItem(owner.id);
    for (let i = 0; i < 10; i++) await sendFinderMessage(deps, id, noScript(`m${i}`), nextIp());
    expect(await ownerMails(owner.email)).toHaveLength(10);
    // A second later: the outbox is stamped by the test's clock, so the digest sorts after the ten.
    deps.setNow(deps.clock() + 1_000);
    const t0 = deps.clock();
    await sendFinderMessage(deps, id, solved("first of the flood"), nextIp());
    let mails = await ownerMails(owner.email);
    expect(mails).toHaveLength(11);
    expect(mails[10]!.subject).toBe("1 nytt meddelande om Blå ryggsäck");
    expect(mails[10]!.text).toContain("http://localhost:3000/messages\n");
    expect(mails[10]!.text).not.toContain("first of the flood");
    for (let i = 1; i <= 3; i++) {
      deps.setNow(t0 + i * 60_000);
      await sendFinderMessage(deps, id, solved(`flood ${i}`), nextIp());
    }
    expect(await ownerMails(owner.email)).toHaveLength(11);
    deps.setNow(t0 + 14 * 60_000);
    expect(await sendDueDigests(deps)).toBe(0);
    deps.setNow(t0 + 15 * 60_000);
    expect(await sendDueDigests(deps)).toBe(1);
    expect(await sendDueDigests(deps)).toBe(0);
    mails = await ownerMails(owner.email);
    expect(mails).toHaveLength(12);
    expect(mails[11]!.subject).toBe("3 nya meddelanden om Blå ryggsäck");
    expect(mails[11]!.text).toContain("3 nya sedan vårt förra mejl");
    // A quarter hour with nothing new ends the burst; after the hour's window, mail per message again.
    deps.setNow(t0 + 30 * 60_000);
    expect(await sendDueDigests(deps)).toBe(0);
    expect(await deps.db.selectFrom("relay_digests").selectAll().execute()).toHaveLength(0);
    deps.setNow(t0 + hour + 1);
    await sendFinderMessage(deps, id, noScript("calm again"), nextIp());
    mails = await ownerMails(owner.email);
    expect(mails).toHaveLength(13);
    expect(mails[12]!.text).toContain("calm again");
  });

  it("an owner whose email is not verified gets no digest either: the messages wait on /messages", async () => {
    const owner = await user("en", false);
    const id = await paidItem(owner.id);
    for (let i = 0; i < 10; i++) await sendFinderMessage(deps, id, noScript(`m${i}`), nextIp());
    await sendFinderMessage(deps, id, solved("flooded"), nextIp());
    expect(await ownerMails(owner.email)).toHaveLength(0);
    expect(await countOwnerUnread(deps, owner.id)).toBe(11);
  });

  it("a message within a quarter hour of the last digest joins the burst, even once the item is below the threshold", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    for (let i = 0; i < 10; i++) await sendFinderMessage(deps, id, noScript(`m${i}`), nextIp());
    const t0 = deps.clock();
    await sendFinderMessage(deps, id, solved("flood"), nextIp());
    expect(await ownerMails(owner.email)).toHaveLength(11);
    // Still flooded, and the last digest is more than a quarter hour old: a digest at once.
    deps.setNow(t0 + 50 * 60_000);
    await sendFinderMessage(deps, id, solved("flood later"), nextIp());
    expect(await ownerMails(owner.email)).toHaveLength(12);
    // The hour's window is over, but the digest went out 11 minutes ago: the burst goes on.
    deps.setNow(t0 + hour + 1_000);
    expect(await isRelayFlooded(deps, id)).toBe(false);
    await sendFinderMessage(deps, id, noScript("still bursting"), nextIp());
    expect(await ownerMails(owner.email)).toHaveLength(12);
    deps.setNow(t0 + 65 * 60_000);
    expect(await sendDueDigests(deps)).toBe(1);
    expect((await ownerMails(owner.email)).at(-1)!.subject).toBe("1 new message about Blå ryggsäck");
  });
});
