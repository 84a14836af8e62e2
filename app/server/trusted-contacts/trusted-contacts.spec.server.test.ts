/**
 * The trusted contacts' rules (contacts.service, invite.service, confirm.service and
 * reply.service beside this file; decisions 040, 046), on an in-memory SQLite through the
 * real migrations, with a clock the test moves. Each rule is named once; "held by" points at
 * the test that already protects it, the rest are here.
 *
 * naming a contact (invite.service)
 *  1. A name, a plausible address and/or a number that can be read; at most three per account
 *     or desk. Held by tests/integration/trusted-contacts.test.ts "refuses bad input … at most three contacts".
 *  2. Only an account with a verified email names anyone. Held by tests/integration/consent.test.ts
 *     "an account whose email is not verified invites nobody …".
 *  3. A number outside SMS_COUNTRIES is refused when typed. Held by tests/integration/trusted-contacts.test.ts.
 *  4. The one consent request: to the address when given, else the number; Hittad's words and the
 *     owner's first name only; limits per recipient. Held by tests/integration/consent.test.ts (finding 2).
 *  5. At most ten invitations per account a day, whatever was removed meanwhile. Here.
 *  6. Desk contacts: current admins only, after the data processing agreement. Held by
 *     tests/integration/trusted-contacts-service.test.ts (the desk's trusted contacts).
 * confirming (confirm.service)
 *  7. A confirmation link works for 7 days. Here.
 *  8. The address confirms with the link alone; the number only with the code sent to it
 *     (10 minutes, five tries counted first, fifteen checks an hour). Held by
 *     tests/integration/trusted-contacts-service.test.ts "confirming a contact reached only by SMS".
 *  9. A new code only while the page asks for the number. Here.
 * 10. Declining the invitation, and allowing it again, only on its own page. Held by
 *     tests/integration/consent.test.ts "an SMS invitation is declined for good …" and "the invitation's never link …".
 * 11. A stop covers the address or number it came by and every one the contact confirmed.
 *     Held by tests/integration/consent.test.ts "stopped by mail: …" and "stopped by SMS: …".
 * 12. Allowing again from a stop link frees only that address; the contact stays stopped. Here.
 * the owner's lists (contacts.service)
 * 13. Each address and number has its own state; the contact is stopped when stopped or every
 *     channel declined, confirmed when one confirmed. Here.
 * 14. An account removes only its own contacts; a desk contact is the organisation's. Held by
 *     tests/integration/trusted-contacts-service.test.ts "finding 7: an admin who was removed …".
 * 15. The per-item choice is saved for the owner's own items only. Here (the choice itself by
 *     tests/integration/trusted-contacts.test.ts "an item the owner unticked …").
 * 16. The export lists the account's own contacts, not the desk contacts it named. Here.
 * 17. Erasing an account leaves the desk contacts it named with the desk. Held by
 *     tests/integration/trusted-contacts-service.test.ts "erasing the admin who named them …".
 * answering the finder (reply.service)
 * 18. A reply link works only for a confirmed contact not stopped, whose owner still manages the
 *     item and did not leave them out for it. Here (a forged token by
 *     tests/integration/trusted-contacts.test.ts "a wrong or altered reply token is 404 …").
 * 19. A reply is 1–2,000 characters. Here.
 * 20. The reply reaches the finder as the owner's side, with the contact's name. Held by
 *     tests/integration/trusted-contacts.test.ts "gets nothing before confirming; once confirmed …".
 * keeping (contacts.repository, run by housekeeping)
 * 21. A contact that never confirmed goes 30 days after being named; so does the number of a
 *     contact confirmed by mail whose number never confirmed itself. Here.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { DAY_MS } from "~/lib/domain/dates";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createTestOrganisation, signUpOwner, type TestOwner } from "../../../tests/support/service-fixtures";
import { createItem } from "../items/items.service.server";
import { mayMessage, suppressAll } from "../recipients/recipients.service.server";
import { sendFinderMessage } from "../relay/relay.service.server";
import {
  confirmContact,
  readConfirmation,
  resendConfirmCode,
  allowAfterStop,
  stopContact,
} from "./confirm.service.server";
import { replyToken, stopToken } from "./contact-links.server";
import { deleteUnconfirmedBefore, insertContact, listExcludedContactIds } from "./trusted-contacts.repository.server";
import { exportContacts, listContacts, removeContact, saveItemContactChoices } from "./trusted-contacts.service.server";
import { addContact, INVITE_RULE } from "./invite.service.server";
import { openContactReply, replyAsContact } from "./reply.service.server";

const ITEM: ProductInput = {
  name: "Black keys",
  findFee: 100,
  prodType: "other",
  contactInfo: "",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
let shared: ServiceTestDeps;
let seq = 0;

// One database for the file (each test makes its own owner, items and addresses; the
// suppression list is keyed by address, so every address is new); the clock starts again.
beforeAll(async () => {
  shared = await createServiceDeps({}, START);
});
beforeEach(() => {
  shared.setNow(START);
});
afterAll(async () => {
  await shared.close();
});

async function setUp(d: ServiceTestDeps = shared) {
  return { d, owner: await signUpOwner(d, { prefix: "contacts" }) };
}

const unique = (name: string) => `${name}-${++seq}@example.test`;
const aNumber = () => `+46701${String(1_000_000 + ++seq).slice(1)}`;

const mailTo = (d: ServiceTestDeps, to: string) =>
  d.db
    .selectFrom("mail_outbox")
    .select("text")
    .where("to", "=", to)
    .orderBy("createdAt")
    .execute()
    .then((rows) => rows.map((r) => r.text));

/** A contact row as the invitation leaves it, each channel confirmed when told. */
async function contactOf(
  d: ServiceTestDeps,
  owner: Pick<TestOwner, "id">,
  opts: {
    email?: string | null;
    phone?: string | null;
    emailConfirmed?: boolean;
    phoneConfirmed?: boolean;
    org?: string;
  } = {},
) {
  const id = randomUUID();
  const confirmed = opts.emailConfirmed || opts.phoneConfirmed ? START : null;
  await insertContact(d.db, {
    id,
    userId: owner.id,
    name: "Bo",
    email: opts.email === undefined ? unique("bo") : opts.email,
    phone: opts.phone ?? null,
    language: "en",
    confirmTokenHash: randomUUID(),
    confirmSentAt: START,
    confirmedAt: confirmed,
    stoppedAt: null,
    createdAt: START,
    confirmCodeHash: null,
    confirmCodeExpiresAt: null,
    confirmCodeAttempts: 0,
    organisationId: opts.org ?? null,
    emailConfirmedAt: opts.emailConfirmed ? START : null,
    phoneConfirmedAt: opts.phoneConfirmed ? START : null,
  });
  return id;
}

/** Invites by mail and answers the confirmation link's token. */
async function invitedByMail(d: ServiceTestDeps, owner: TestOwner) {
  const email = unique("invited");
  await addContact(d, owner.id, { name: "Bo", email, phone: "" });
  const [text] = await mailTo(d, email);
  return { email, token: /\/t\/c\/([A-Za-z0-9_-]+)/.exec(text!)![1]! };
}

describe("naming a contact", () => {
  // Its own database: rate limits count here, and the counters must start at zero.
  let limited: ServiceTestDeps;
  beforeAll(async () => {
    limited = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" }, START);
  });
  afterAll(async () => {
    await limited.close();
  });

  it(`at most ${INVITE_RULE.limit} invitations per account a day, whatever was removed meanwhile`, async () => {
    const { d, owner } = await setUp(limited);
    for (let i = 0; i < INVITE_RULE.limit; i++) {
      await addContact(d, owner.id, { name: "Bo", email: unique(`limit-${i}`), phone: "" });
      // Three at a time: remove to make room, as a persistent sender would.
      for (const c of await listContacts(d, owner.id)) if (i % 3 === 2) await removeContact(d, owner.id, c.id);
    }
    for (const c of await listContacts(d, owner.id)) await removeContact(d, owner.id, c.id);
    const extra = { name: "Bo", email: unique("limit-extra"), phone: "" };
    await expect(addContact(d, owner.id, extra)).rejects.toMatchObject({ code: "rateLimited" });
    expect(await mailTo(d, extra.email)).toHaveLength(0);
    d.setNow(START + DAY_MS + 1);
    await addContact(d, owner.id, extra);
    expect(await mailTo(d, extra.email)).toHaveLength(1);
  });
});

describe("confirming", () => {
  it("a confirmation link works for 7 days, then confirms nothing", async () => {
    const { d, owner } = await setUp();
    const { token } = await invitedByMail(d, owner);
    d.setNow(START + 7 * DAY_MS);
    expect((await readConfirmation(d, token)).step).toBe("email");
    d.setNow(START + 7 * DAY_MS + 1);
    await expect(readConfirmation(d, token)).rejects.toMatchObject({ code: "notFound" });
    await expect(confirmContact(d, token)).rejects.toMatchObject({ code: "notFound" });
    expect((await listContacts(d, owner.id))[0]!.emailState).toBe("pending");
  });

  it("a code is sent only while the page asks for the number", async () => {
    const { d, owner } = await setUp();
    const email = unique("with-number");
    const phone = aNumber();
    await addContact(d, owner.id, { name: "Bo", email, phone });
    const [text] = await mailTo(d, email);
    const token = /\/t\/c\/([A-Za-z0-9_-]+)/.exec(text!)![1]!;
    // The page asks for the address first: no code to the number yet.
    await expect(resendConfirmCode(d, token)).rejects.toMatchObject({ code: "notFound" });
    expect(await mailTo(d, phone)).toHaveLength(0);
    await confirmContact(d, token);
    expect((await resendConfirmCode(d, token)).step).toBe("code");
    expect(await mailTo(d, phone)).toHaveLength(1);
  });

  it("allowing again from a stop link frees the address it came by; the contact stays stopped", async () => {
    const { d, owner } = await setUp();
    const email = unique("stopper");
    const id = await contactOf(d, owner, { email, emailConfirmed: true });
    const token = stopToken(d.config, id);
    await stopContact(d, token);
    expect(await mayMessage(d, "email", email)).toBe(false);
    const allowed = await allowAfterStop(d, token);
    expect(allowed.suppressed).toBe(false);
    expect(await mayMessage(d, "email", email)).toBe(true);
    expect((await listContacts(d, owner.id))[0]!.status).toBe("stopped");
  });
});

describe("the owner's lists", () => {
  it("each address and number has its own state; the contact's status follows them", async () => {
    const { d, owner } = await setUp();
    const [a, b, c] = [unique("a"), unique("b"), unique("c")];
    const [aPhone, bPhone, cPhone] = [aNumber(), aNumber(), aNumber()];
    await contactOf(d, owner, { email: a, phone: aPhone, emailConfirmed: true });
    await contactOf(d, owner, { email: b, phone: bPhone });
    await contactOf(d, owner, { email: c, phone: cPhone, emailConfirmed: true });
    await suppressAll(
      d,
      [
        { channel: "sms", to: aPhone },
        { channel: "email", to: c },
        { channel: "sms", to: cPhone },
      ],
      START,
    );
    const byEmail = new Map((await listContacts(d, owner.id)).map((v) => [v.email, v]));
    expect(byEmail.get(a)).toMatchObject({
      emailState: "confirmed",
      phoneState: "declined",
      status: "confirmed",
    });
    expect(byEmail.get(b)).toMatchObject({
      emailState: "pending",
      phoneState: "pending",
      status: "pending",
    });
    expect(byEmail.get(c)).toMatchObject({
      emailState: "declined",
      phoneState: "declined",
      status: "stopped",
    });
  });

  it("the per-item choice is saved for the owner's own items only", async () => {
    const { d, owner } = await setUp();
    const other = await signUpOwner(d, { prefix: "contacts" });
    const mine = await createItem(d, owner.id, ITEM, "en");
    const theirs = await createItem(d, other.id, ITEM, "en");
    const contact = await contactOf(d, owner, { emailConfirmed: true });
    await saveItemContactChoices(d, owner.id, new Map(), [mine, theirs]);
    expect(await listExcludedContactIds(d.db, mine)).toEqual([contact]);
    expect(await listExcludedContactIds(d.db, theirs)).toEqual([]);
  });

  it("the export lists the account's own contacts, not the desk contacts it named", async () => {
    const { d, owner } = await setUp();
    const org = await createTestOrganisation(d, owner);
    const own = unique("own");
    await contactOf(d, owner, { email: own, emailConfirmed: true });
    await contactOf(d, owner, { email: unique("desk"), emailConfirmed: true, org });
    const exported = await exportContacts(d, owner.id);
    expect(exported.map((c) => [c.email, c.status])).toEqual([[own, "confirmed"]]);
    expect(exported[0]!.emailConfirmedAt).toBe(new Date(START).toISOString());
  });
});

describe("answering the finder", () => {
  async function conversation() {
    const { d, owner } = await setUp();
    const item = await createItem(d, owner.id, ITEM, "en");
    await d.db.updateTable("products").set({ payed: 1 }).where("id", "=", item).execute();
    const contact = await contactOf(d, owner, { emailConfirmed: true });
    const { conversationId } = await sendFinderMessage(
      d,
      item,
      { message: "I found your keys", contact: "", captchaToken: "", js: false, trap: false },
      { ip: "203.0.113.7", lang: "en", viewerId: null },
    );
    return { d, owner, item, contact, token: replyToken(d.config, conversationId, contact) };
  }
  const replies = (d: ServiceTestDeps, contactId: string) =>
    d.db.selectFrom("conversation_messages").select("text").where("contactId", "=", contactId).execute();

  it("a reply link opens while the contact is confirmed and chosen for the item, not once they stopped", async () => {
    const { d, contact, token } = await conversation();
    expect((await openContactReply(d, token)).messages).toHaveLength(1);
    await stopContact(d, stopToken(d.config, contact));
    await expect(openContactReply(d, token)).rejects.toMatchObject({ code: "notFound" });
    await expect(replyAsContact(d, token, "On my way")).rejects.toMatchObject({ code: "notFound" });
    expect(await replies(d, contact)).toHaveLength(0);
  });

  it("nor once the owner left them out for the item", async () => {
    const { d, owner, item, contact, token } = await conversation();
    await saveItemContactChoices(d, owner.id, new Map(), [item]);
    await expect(replyAsContact(d, token, "On my way")).rejects.toMatchObject({ code: "notFound" });
    expect(await replies(d, contact)).toHaveLength(0);
  });

  it("a reply is 1 to 2,000 characters", async () => {
    const { d, contact, token } = await conversation();
    await expect(replyAsContact(d, token, "   ")).rejects.toMatchObject({ code: "reply.invalid" });
    await expect(replyAsContact(d, token, "x".repeat(2001))).rejects.toMatchObject({ code: "reply.invalid" });
    expect(await replies(d, contact)).toHaveLength(0);
    await replyAsContact(d, token, "x".repeat(2000));
    expect(await replies(d, contact)).toHaveLength(1);
  });
});

describe("keeping", () => {
  it("21: a number that never confirmed itself is forgotten 30 days after the contact was named, a confirmed one kept", async () => {
    const { d, owner } = await setUp();
    const strangers = aNumber();
    const confirmedNumber = aNumber();
    const mailOnly = await contactOf(d, owner, { phone: strangers, emailConfirmed: true });
    const both = await contactOf(d, owner, { phone: confirmedNumber, emailConfirmed: true, phoneConfirmed: true });
    const never = await contactOf(d, owner, {});
    const phoneOf = (id: string) =>
      d.db.selectFrom("trusted_contacts").select("phone").where("id", "=", id).executeTakeFirst();
    // A day short of the period: nothing goes.
    await deleteUnconfirmedBefore(d.db, START - DAY_MS);
    expect((await phoneOf(mailOnly))?.phone).toBe(strangers);
    await deleteUnconfirmedBefore(d.db, START + DAY_MS);
    expect((await phoneOf(mailOnly))?.phone).toBeNull();
    expect((await phoneOf(both))?.phone).toBe(confirmedNumber);
    expect(await phoneOf(never)).toBeUndefined();
  });
});
