/**
 * A finder's typed address is a third party's until it confirms itself (decision 058):
 * the first mail carries only Hittad's words and the private link, passes the suppression
 * list and the limits per recipient and carries the never link; the owner's replies are mailed only after the link from that mail was
 * opened, never with the item's name in the subject; nobody answers through a relay that
 * closed. SQLite by default, PostgreSQL with DATABASE_URL=postgres://….
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { addContact } from "../../app/server/trusted-contacts/invite.service.server";
import { replyAsContact } from "../../app/server/trusted-contacts/reply.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { neverContactAgain } from "../../app/server/recipients/recipients.service.server";
import {
  confirmFinderMail,
  openFinderThread,
  replyAsOwner,
  sendFinderMessage,
} from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import type { Deps } from "../../app/server/service-deps.server";
import { ServiceError } from "../../app/server/service-error.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";

let tdb: TestDatabase;
let rt: Runtime;
let deps: Deps;
let ip = 0;

beforeAll(async () => {
  tdb = await createTestDatabase("finder_consent");
  rt = await createTestRuntime({ ...testEnv(tdb), BASE_URL: "https://hittad.example" });
  deps = { ...depsOf(rt) };
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

const PHISH = "URGENT: your bank account is locked - verify at http://evil.example/login now";

const mailTo = (to: string) =>
  rt.database.db
    .selectFrom("mail_outbox")
    .select(["subject", "text"])
    .where("channel", "=", "email")
    .where("to", "=", to)
    .orderBy("createdAt")
    .execute();
const tokenOf = (text: string, prefix: string) => new RegExp(`${prefix}([A-Za-z0-9_-]+)`).exec(text)![1]!;
const victimAddress = () => `victim-${randomBytes(4).toString("hex")}@example.test`;

async function errorCode(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return (err as ServiceError<string>).code;
    throw err;
  }
  return "ok";
}

async function paidItem(ownerId: string, name: string) {
  const id = await createItem(
    deps,
    ownerId,
    { name, findFee: 0, prodType: "mobile", contactInfo: "", payment: "year", intent: "payLater" },
    "en",
  );
  await rt.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

async function finderWrites(itemId: string, contact: string, message = PHISH) {
  return sendFinderMessage(
    deps,
    itemId,
    { message, contact, captchaToken: "", js: false, trap: false },
    { ip: `198.51.100.${++ip}`, lang: "en", viewerId: null },
  );
}

/** The victim says "never contact me again" from a consent request that reached them. */
async function suppress(victim: string) {
  const inviter = await createUser(rt, { name: "Anna Inviter" });
  await addContact(deps, inviter.id, { name: "Vic", email: victim, phone: "" });
  const [invite] = await mailTo(victim);
  await neverContactAgain(deps, tokenOf(invite!.text, "/t/n/"));
}

describe("the first mail to a finder's address is a consent request", () => {
  it("carries only Hittad's words, the private link with its code and the never link", async () => {
    const victim = victimAddress();
    const owner = await createUser(rt, { name: "Mallory Owner" });
    const item = await paidItem(owner.id, PHISH.slice(0, 60));
    const { token } = await finderWrites(item, victim);
    const mails = await mailTo(victim);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your message has been sent to the owner");
    expect(mails[0]!.text).not.toContain("evil.example");
    expect(mails[0]!.text).toContain(`/m/${token}?c=`);
    expect(mails[0]!.text).toContain("/t/n/");
  });

  it("is not sent to a suppressed address, and the finder's message is still stored", async () => {
    const victim = victimAddress();
    await suppress(victim);
    const owner = await createUser(rt);
    const item = await paidItem(owner.id, "Keys");
    const { token } = await finderWrites(item, victim, "Found your keys");
    expect(await mailTo(victim)).toHaveLength(1); // only the invitation it said "never" to
    expect((await openFinderThread(deps, token)).messages.map((m) => m.text)).toEqual(["Found your keys"]);
  });

  it("counts against the limits per recipient shared with every consent request", async () => {
    const victim = victimAddress();
    const owner = await createUser(rt);
    const item = await paidItem(owner.id, "Keys");
    for (let i = 0; i < 4; i++) await finderWrites(item, victim, `note ${i}`);
    expect(await mailTo(victim)).toHaveLength(2);
  });
});

describe("the owner's replies reach only an address that confirmed itself", () => {
  it("are not mailed until the first mail's link is opened; then mailed without the item in the subject", async () => {
    const victim = victimAddress();
    const owner = await createUser(rt, { name: "Mallory Owner" });
    const item = await paidItem(owner.id, PHISH.slice(0, 60));
    const sent = await finderWrites(item, victim);
    for (let i = 0; i < 3; i++) await replyAsOwner(deps, owner.id, sent.conversationId, `${PHISH} #${i}`);
    // The finder page's own redirect (no code) confirms nothing.
    expect((await openFinderThread(deps, sent.token)).mailConfirmed).toBe(false);
    expect((await openFinderThread(deps, sent.token, "A".repeat(22))).mailConfirmed).toBe(false);
    await replyAsOwner(deps, owner.id, sent.conversationId, "still nothing");
    const [first, ...rest] = await mailTo(victim);
    expect(rest).toHaveLength(0);
    // Opening the mailed link (a GET, as a mail scanner that follows links does) only asks.
    const code = tokenOf(first!.text, "\\?c=");
    const opened = await openFinderThread(deps, sent.token, code);
    expect(opened.mailConfirmed).toBe(false);
    expect(opened.confirmMail).toBe(code);
    await replyAsOwner(deps, owner.id, sent.conversationId, "not yet either");
    expect(await mailTo(victim)).toHaveLength(1);
    // A wrong code posted confirms nothing; the mailbox's own yes does: replies from now on are mailed.
    expect(await confirmFinderMail(deps, sent.token, "A".repeat(22))).toBe(false);
    expect(await confirmFinderMail(deps, sent.token, code)).toBe(true);
    expect((await openFinderThread(deps, sent.token)).mailConfirmed).toBe(true);
    await replyAsOwner(deps, owner.id, sent.conversationId, "Leave it at the desk");
    const after = await mailTo(victim);
    expect(after).toHaveLength(2);
    expect(after[1]!.subject).toBe("The owner has answered your message");
    expect(after[1]!.text).toContain("Leave it at the desk");
    expect(after[1]!.text).toContain("/t/n/");
  });

  it("a confirmed address that later says never gets no more replies", async () => {
    const finder = victimAddress();
    const owner = await createUser(rt);
    const item = await paidItem(owner.id, "Keys");
    const sent = await finderWrites(item, finder, "Found them");
    const [first] = await mailTo(finder);
    await confirmFinderMail(deps, sent.token, tokenOf(first!.text, "\\?c="));
    await neverContactAgain(deps, tokenOf(first!.text, "/t/n/"));
    await replyAsOwner(deps, owner.id, sent.conversationId, "Thanks");
    expect(await mailTo(finder)).toHaveLength(1);
  });
});

describe("nobody answers through a closed relay", () => {
  it("the owner's reply is refused once the item is neither paid nor has earned the lapsed relay", async () => {
    const owner = await createUser(rt);
    const item = await paidItem(owner.id, "Keys");
    const sent = await finderWrites(item, victimAddress(), "Found them");
    await rt.database.db.updateTable("products").set({ payed: 0, paidUntil: null }).where("id", "=", item).execute();
    expect(await errorCode(replyAsOwner(deps, owner.id, sent.conversationId, "after refund"))).toBe("closed");
  });

  it("a trusted contact's reply is refused too", async () => {
    const owner = await createUser(rt);
    const contactAddress = victimAddress();
    await addContact(deps, owner.id, { name: "Cleo", email: contactAddress, phone: "" });
    const row = await rt.database.db
      .selectFrom("trusted_contacts")
      .select("id")
      .where("email", "=", contactAddress)
      .executeTakeFirstOrThrow();
    await rt.database.db
      .updateTable("trusted_contacts")
      .set({ confirmedAt: Date.now(), emailConfirmedAt: Date.now() })
      .where("id", "=", row.id)
      .execute();
    const item = await paidItem(owner.id, "Keys");
    await finderWrites(item, "", "Found them");
    const alert = (await mailTo(contactAddress)).find((m) => /\/t\/r\//.test(m.text));
    expect(alert, "the contact's alert with its reply link").toBeDefined();
    const replyToken = tokenOf(alert!.text, "/t/r/");
    await rt.database.db.updateTable("products").set({ payed: 0, paidUntil: null }).where("id", "=", item).execute();
    expect(await errorCode(replyAsContact(deps, replyToken, "after refund"))).toBe("closed");
  });
});

describe("strangers on a sticker's page do not use up an address's allowance", () => {
  it("finders' first mails count against limits of their own: the address's own people can still invite it", async () => {
    const address = victimAddress();
    const owner = await createUser(rt);
    const item = await paidItem(owner.id, "Keys");
    for (let i = 0; i < 3; i++) await finderWrites(item, address, `Found them ${i}`);
    // Two first mails a day to one mailbox, then the finder's limit holds…
    expect(await mailTo(address)).toHaveLength(2);
    // …and a trusted contact's invitation to the same mailbox still goes.
    const inviter = await createUser(rt);
    expect(await errorCode(addContact(deps, inviter.id, { name: "Bo", email: address, phone: "" }))).toBe("ok");
    expect(await mailTo(address)).toHaveLength(3);
  });
});
