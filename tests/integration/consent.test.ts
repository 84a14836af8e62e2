/**
 * Nobody is messaged who did not ask for it (findings 1 and 2 of the fourth security review, decision 046), at
 * the service level on SQLite and (DATABASE_URL=postgres://…) PostgreSQL, with a clock the
 * test moves. Each attack of the review is replayed and must fail:
 * - an owner names {their own mailbox, a stranger's number}, confirms from the mailbox, and
 *   texts the stranger on every finder message;
 * - the stranger's stop is undone by removing and adding them again, from any account or
 *   organisation;
 * - brand-new unverified accounts invite anyone, text codes to foreign numbers, outside
 *   the SMS quota, with the account's name (a phishing line) in the subject.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { requestPhoneCode } from "../../app/server/alerts/alerts.service.server";
import {
  allowInvitation,
  confirmContact,
  declineInvitation,
  readConfirmation,
  resendConfirmCode,
  stopContact,
} from "../../app/server/trusted-contacts/confirm.service.server";
import { listContacts, removeContact } from "../../app/server/trusted-contacts/trusted-contacts.service.server";
import { addContact, addDeskContact } from "../../app/server/trusted-contacts/invite.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import {
  inviteMember,
  sendBillingEmailConfirmation,
} from "../../app/server/organisations/organisations.service.server";
import {
  allowContactAgain,
  neverContactAgain,
  readNeverLink,
  RECIPIENT_DAY_LIMIT,
  RECIPIENT_MONTH_LIMIT,
  RecipientsError,
} from "../../app/server/recipients/recipients.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import type { Deps } from "../../app/server/service-deps.server";
import { ServiceError } from "../../app/server/service-error.server";
import { smsBudgetToday } from "../../app/server/sms/sms-guard.server";
import { createSmsSender } from "../../app/server/sms/elks.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { createOrganisationWithDpa } from "../support/dpa";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

let tdb: TestDatabase;
let rt: Runtime;
let now = Date.UTC(2026, 10, 28, 9);
let deps: Deps;
let ip = 0;

beforeAll(async () => {
  tdb = await createTestDatabase("consent");
  // No RATE_LIMIT_DISABLED: the per-recipient limits count whatever it says, the others do not.
  rt = await createTestRuntime({ ...testEnv(tdb), BASE_URL: "https://hittad.example" });
  // The clock the test moves, a millisecond on at each reading: the outbox rows it stamps
  // (its times come from the caller's clock) keep the order they were written in.
  let tick = 0;
  deps = { ...depsOf(rt), clock: () => now + ++tick };
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

const DAY = 24 * 60 * 60_000;

const outbox = (channel: "sms" | "email", to: string) =>
  rt.database.db
    .selectFrom("mail_outbox")
    .select(["subject", "text"])
    .where("channel", "=", channel)
    .where("to", "=", to)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
const smsTo = async (to: string) => (await outbox("sms", to)).map((r) => r.text);
const mailTo = (to: string) => outbox("email", to);

const tokenOf = (text: string, prefix: string) => {
  const m = new RegExp(`${prefix}([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${prefix} in: ${text}`);
  return m[1]!;
};
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
let numbers = 0;
/** A Swedish mobile number no other test uses: as typed and in E.164. */
const aNumber = () => {
  const n = String(1_000_000 + ((Date.now() + ++numbers * 7919) % 8_999_999)).padStart(7, "0");
  return { typed: `070-${n.slice(0, 3)} ${n.slice(3)}`, e164: `+4670${n}` };
};
const anAddress = (tag: string) => `${tag}-${randomBytes(4).toString("hex")}@example.test`;

async function errorCode(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return (err as ServiceError<string>).code;
  }
  throw new Error("expected a ServiceError");
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

const finderWrites = (itemId: string, message: string) =>
  sendFinderMessage(
    deps,
    itemId,
    { message, contact: "", captchaToken: "", js: false, trap: false },
    { ip: `198.51.${++ip % 250}.${ip % 200}`, lang: "en", viewerId: null },
  );

const ORGANISATION = {
  name: "URGENT: your bank account is locked - verify at http://evil.example",
  // One number makes one organisation (decision 057): each creation its own.
  get orgNumber() {
    return uniqueOrgNumber();
  },
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "90326",
  invoiceCity: "Umeå",
  invoiceCountry: "SE",
  vatNumber: null,
  deskContact: "Reception",
};

describe("finding 1: a number gets alerts only once that phone confirmed", () => {
  it("an owner naming their own mailbox and a stranger's number cannot text the stranger", async () => {
    const owner = await createUser(rt, { name: "Mallory Owner" });
    const mailbox = anAddress("mallory-own");
    const stranger = aNumber();
    await addContact(deps, owner.id, { name: "Not me", email: mailbox, phone: stranger.typed });
    // The owner confirms from their own mailbox.
    await confirmContact(deps, tokenOf((await mailTo(mailbox))[0]!.text, "/t/c/"));
    const item = await paidItem(owner.id, "Bait phone");
    await finderWrites(item, "Send money to account 1234 now");
    // The mail reaches the mailbox that confirmed; the number that did not gets nothing at all.
    expect((await mailTo(mailbox)).map((m) => m.text).join("\n")).toContain("Send money to account 1234 now");
    expect(await smsTo(stranger.e164)).toEqual([]);
    const [contact] = await listContacts(deps, owner.id);
    expect(contact).toMatchObject({ emailState: "confirmed", phoneState: "pending" });
  });

  it("the number confirms itself with the code sent to it; only then do alerts go by SMS", async () => {
    const owner = await createUser(rt, { name: "Olle Owner" });
    const email = anAddress("kim");
    const phone = aNumber();
    await addContact(deps, owner.id, { name: "Kim", email, phone: phone.typed });
    const token = tokenOf((await mailTo(email))[0]!.text, "/t/c/");
    // No code before the address is confirmed: the page's holder must be the mailbox's.
    expect(await errorCode(resendConfirmCode(deps, token))).toBe("notFound");
    await confirmContact(deps, token);
    await resendConfirmCode(deps, token);
    const [codeSms] = await smsTo(phone.e164);
    // A consent request: no owner-typed text, a never link.
    expect(codeSms).not.toContain("Olle");
    expect(codeSms).toMatch(/Never contact me: https:\/\/hittad\.example\/t\/n\/[A-Za-z0-9_-]{12}$/);
    const wrong = codeIn(codeSms!) === "000000" ? "111111" : "000000";
    expect(await errorCode(confirmContact(deps, token, wrong))).toBe("code.wrong");
    const item = await paidItem(owner.id, "Red phone");
    await finderWrites(item, "Found by the lake");
    expect(await smsTo(phone.e164)).toHaveLength(1);
    await confirmContact(deps, token, codeIn(codeSms!));
    expect((await listContacts(deps, owner.id))[0]).toMatchObject({ emailState: "confirmed", phoneState: "confirmed" });
    await finderWrites(item, "Still by the lake");
    const texts = await smsTo(phone.e164);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain("Olle Owner's Red phone");
  });
});

describe("finding 1: a stop holds for that number or address, whoever names them again", () => {
  it("stopped by SMS: removing and adding again, from this account, another, or an organisation's desk, sends nothing", async () => {
    const owner = await createUser(rt, { name: "Eve Owner" });
    const phone = aNumber();
    await addContact(deps, owner.id, { name: "Target", email: "", phone: phone.typed });
    const [invite] = await smsTo(phone.e164);
    await confirmContact(deps, tokenOf(invite!, "/t/c/"), codeIn(invite!));
    const item = await paidItem(owner.id, "Keys");
    await finderWrites(item, "hello");
    const alert = (await smsTo(phone.e164))[1]!;
    await stopContact(deps, tokenOf(alert, "/t/s/"));
    const sent = (await smsTo(phone.e164)).length;

    const [stopped] = await listContacts(deps, owner.id);
    await removeContact(deps, owner.id, stopped!.id);
    const again = { name: "Target again", email: "", phone: phone.typed };
    expect(await errorCode(addContact(deps, owner.id, again))).toBe("recipient.suppressed");
    const other = await createUser(rt, { name: "Eve Second" });
    expect(await errorCode(addContact(deps, other.id, again))).toBe("recipient.suppressed");
    const org = await createOrganisationWithDpa(deps, other.id, { ...ORGANISATION, billingEmail: anAddress("b") });
    expect(await errorCode(addDeskContact(deps, other.id, org, again))).toBe("recipient.suppressed");
    // Nor a code for "their own" number.
    expect(await errorCode(requestPhoneCode(deps, other.id, "en", phone.typed))).toBe("recipient.suppressed");
    expect(await smsTo(phone.e164)).toHaveLength(sent);
  });

  it("stopped by mail: the address stays suppressed, the number beside it (never confirmed) does not", async () => {
    const owner = await createUser(rt);
    const email = anAddress("ada");
    const phone = aNumber();
    await addContact(deps, owner.id, { name: "Ada", email, phone: phone.typed });
    await confirmContact(deps, tokenOf((await mailTo(email))[0]!.text, "/t/c/"));
    await finderWrites(await paidItem(owner.id, "Bag"), "found your bag");
    const [, alert] = await mailTo(email);
    await stopContact(deps, tokenOf(alert!.text, "/t/s/"));
    const other = await createUser(rt);
    expect(await errorCode(addContact(deps, other.id, { name: "Ada", email, phone: "" }))).toBe("recipient.suppressed");
    // The owner typed that number; its holder never said anything, so nothing was suppressed for them.
    await addContact(deps, other.id, { name: "Bo", email: "", phone: phone.typed });
    expect(await smsTo(phone.e164)).toHaveLength(1);
  });

  it("the invitation's never link suppresses the address; only its holder allows requests again", async () => {
    const owner = await createUser(rt, { name: "Nina" });
    const email = anAddress("never");
    await addContact(deps, owner.id, { name: "Per", email, phone: "" });
    const [invite] = await mailTo(email);
    const never = tokenOf(invite!.text, "/t/n/");
    expect(await readNeverLink(deps, never)).toEqual({ channel: "email", suppressed: false });
    await neverContactAgain(deps, never);
    expect((await listContacts(deps, owner.id))[0]).toMatchObject({ status: "stopped", emailState: "declined" });
    const other = await createUser(rt);
    const input = { name: "Per", email: email.toUpperCase(), phone: "" };
    expect(await errorCode(addContact(deps, other.id, input))).toBe("recipient.suppressed");
    const org = await createOrganisationWithDpa(deps, other.id, { ...ORGANISATION, billingEmail: anAddress("b") });
    expect(
      await errorCode(
        inviteMember(deps, { id: other.id, name: "Other", emailVerified: true }, org, { email, role: "member" }, "en"),
      ),
    ).toBe("recipient.suppressed");
    expect(await mailTo(email)).toHaveLength(1);

    // A forged or altered code opens nothing.
    for (const code of ["AAAAAAAAAAAA", never.slice(0, 11), `${never}x`]) {
      await expect(readNeverLink(deps, code)).rejects.toBeInstanceOf(RecipientsError);
    }
    await allowContactAgain(deps, never);
    await addContact(deps, other.id, input);
    expect(await mailTo(email)).toHaveLength(2);
  });

  it("an SMS invitation is declined for good on the page it links to, and allowed again only there", async () => {
    const owner = await createUser(rt);
    const phone = aNumber();
    await addContact(deps, owner.id, { name: "Bo", email: "", phone: phone.typed });
    const token = tokenOf((await smsTo(phone.e164))[0]!, "/t/c/");
    expect((await declineInvitation(deps, token)).declined).toBe(true);
    const other = await createUser(rt);
    expect(await errorCode(addContact(deps, other.id, { name: "Bo", email: "", phone: phone.typed }))).toBe(
      "recipient.suppressed",
    );
    expect(await errorCode(resendConfirmCode(deps, token))).toBe("recipient.suppressed");
    expect((await allowInvitation(deps, token)).declined).toBe(false);
    await addContact(deps, other.id, { name: "Bo", email: "", phone: phone.typed });
    expect(await smsTo(phone.e164)).toHaveLength(2);
  });

  it("confirming a link that reached them is asking again: the address leaves the list", async () => {
    const owner = await createUser(rt);
    const email = anAddress("changed-mind");
    await addContact(deps, owner.id, { name: "Mo", email, phone: "" });
    const [invite] = await mailTo(email);
    await neverContactAgain(deps, tokenOf(invite!.text, "/t/n/"));
    await confirmContact(deps, tokenOf(invite!.text, "/t/c/"));
    expect((await listContacts(deps, owner.id))[0]).toMatchObject({ status: "confirmed", emailState: "confirmed" });
    await finderWrites(await paidItem(owner.id, "Hat"), "found a hat");
    expect(await mailTo(email)).toHaveLength(2);
  });
});

describe("finding 2: the one consent request carries nothing the requester wrote but a first name", () => {
  const phishing = "URGENT: your bank account is locked - verify at http://evil.example";

  it("a contact's invitation, by mail and by SMS: Hittad's words, no name in the subject, a never link", async () => {
    const owner = await createUser(rt, { name: phishing });
    const email = anAddress("victim");
    await addContact(deps, owner.id, { name: "Click http://evil.example/login", email, phone: "" });
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe("Will you be a trusted contact on Hittad?");
    expect(mail!.text).toContain("Someone uses Hittad");
    for (const bad of ["URGENT", "evil.example", "Click"]) expect(mail!.text).not.toContain(bad);
    expect(mail!.text).toMatch(/\/t\/n\/[A-Za-z0-9_-]{12}\n/);

    const named = await createUser(rt, { name: "Åsa-Britt Lind" });
    const phone = aNumber();
    await addContact(deps, named.id, { name: "Visit evil.example", email: "", phone: phone.typed });
    const [sms] = await smsTo(phone.e164);
    expect(sms).toMatch(
      /^Hittad: Åsa-Britt asks you to be a trusted contact\. Code \d{6}\. Confirm, or decline for good: /,
    );
    expect(sms).not.toContain("evil");
    const page = await readConfirmation(deps, tokenOf(sms!, "/t/c/"));
    expect(page.who).toBe("Åsa-Britt");
  });

  it("an organisation's invite and billing-email link: the admin's first name, never the organisation's name", async () => {
    const admin = await createUser(rt, { name: "Ada Admin" });
    const org = await createOrganisationWithDpa(deps, admin.id, {
      ...ORGANISATION,
      billingEmail: anAddress("billing"),
    });
    const invitee = anAddress("invitee");
    await inviteMember(
      deps,
      { id: admin.id, name: "Ada Admin", emailVerified: true },
      org,
      { email: invitee, role: "member" },
      "en",
    );
    const [invite] = await mailTo(invitee);
    expect(invite!.subject).toBe("You are invited to an organisation on Hittad");
    expect(invite!.text).toContain("Ada, an administrator of an organisation");
    expect(invite!.text).not.toContain("evil");
    expect(invite!.text).toMatch(/\/t\/n\//);
    await sendBillingEmailConfirmation(deps, { id: admin.id, name: phishing, emailVerified: true }, org, "en");
    const billing = await rt.database.db
      .selectFrom("organisations")
      .select("billingEmail")
      .where("id", "=", org)
      .executeTakeFirstOrThrow();
    const [link] = await mailTo(billing.billingEmail);
    expect(link!.subject).toBe("Confirm a billing email address on Hittad");
    expect(`${link!.subject}\n${link!.text}`).not.toContain("evil");
  });
});

describe("finding 2: only accountable accounts ask, within limits per recipient, country and budget", () => {
  it("an account whose email is not verified invites nobody and texts no code", async () => {
    const fresh = await createUser(rt, { verified: false });
    const email = anAddress("nobody");
    const phone = aNumber();
    expect(await errorCode(addContact(deps, fresh.id, { name: "X", email, phone: "" }))).toBe("sender.unverified");
    expect(await errorCode(addContact(deps, fresh.id, { name: "X", email: "", phone: phone.typed }))).toBe(
      "sender.unverified",
    );
    expect(await errorCode(requestPhoneCode(deps, fresh.id, "en", phone.typed))).toBe("sender.unverified");
    const org = await createOrganisationWithDpa(deps, fresh.id, { ...ORGANISATION, billingEmail: anAddress("b") });
    expect(await errorCode(addDeskContact(deps, fresh.id, org, { name: "X", email, phone: "" }))).toBe(
      "sender.unverified",
    );
    expect(await mailTo(email)).toEqual([]);
    expect(await smsTo(phone.e164)).toEqual([]);
  });

  it(`one address or number gets at most ${RECIPIENT_DAY_LIMIT} requests a day and ${RECIPIENT_MONTH_LIMIT} in 30 days, whoever asks`, async () => {
    const phone = aNumber();
    const ask = async () => {
      const owner = await createUser(rt);
      return addContact(deps, owner.id, { name: "Same", email: "", phone: phone.typed });
    };
    let sent = 0;
    for (let day = 0; sent < RECIPIENT_MONTH_LIMIT; day++) {
      for (let i = 0; i < RECIPIENT_DAY_LIMIT && sent < RECIPIENT_MONTH_LIMIT; i++, sent++) await ask();
      if (sent < RECIPIENT_MONTH_LIMIT) expect(await errorCode(ask())).toBe("recipient.busyToday");
      now += DAY;
    }
    expect(await errorCode(ask())).toBe("recipient.busyMonth");
    expect(await smsTo(phone.e164)).toHaveLength(RECIPIENT_MONTH_LIMIT);
    now += 30 * DAY;
    await ask();
    expect(await smsTo(phone.e164)).toHaveLength(RECIPIENT_MONTH_LIMIT + 1);
  });

  it("SMS go only to the allowed countries: refused when typed, and again when sending", async () => {
    const owner = await createUser(rt);
    for (const typed of ["+49 151 23456789", "0049 151 23456789", "+1 202 555 0143"]) {
      expect(await errorCode(addContact(deps, owner.id, { name: "Hans", email: "", phone: typed }))).toBe(
        "sms.country",
      );
      expect(await errorCode(requestPhoneCode(deps, owner.id, "en", typed))).toBe("sms.country");
    }
    // Norway is allowed by default.
    await requestPhoneCode(deps, owner.id, "en", "+47 412 34 567");
    expect(await smsTo("+4741234567")).toHaveLength(1);
    // A row queued for another country (an older rule, any path) costs no SMS.
    const sender = createSmsSender({ sms: { ...rt.config.sms, outboxDir: rt.config.sms.outboxDir } });
    const row = { id: "x", to: "+4915123456789", text: "hi", meta: null } as Parameters<typeof sender.send>[0];
    await expect(sender.send(row)).rejects.toMatchObject({ permanent: true });
  });

  it("every SMS counts against the account's quota and Hittad's day budget: codes, invitations and alerts", async () => {
    const tight = {
      ...deps,
      config: { ...deps.config, sms: { ...deps.config.sms, limitPerAccountMonth: 2, dailyBudget: 1_000 } },
    };
    const owner = await createUser(rt);
    await requestPhoneCode(tight, owner.id, "en", aNumber().typed);
    await addContact(tight, owner.id, { name: "A", email: "", phone: aNumber().typed });
    const third = aNumber();
    expect(await errorCode(addContact(tight, owner.id, { name: "B", email: "", phone: third.typed }))).toBe(
      "sms.quota",
    );
    expect(await smsTo(third.e164)).toEqual([]);
    // Refused: nothing was kept of it (the contact, the counters).
    expect(await listContacts(deps, owner.id)).toHaveLength(1);

    now += DAY;
    const used = (await smsBudgetToday(rt.database.db, deps.config, now)).used;
    const budget = { ...deps, config: { ...deps.config, sms: { ...deps.config.sms, dailyBudget: used + 1 } } };
    await requestPhoneCode(budget, (await createUser(rt)).id, "en", aNumber().typed);
    const late = aNumber();
    expect(await errorCode(requestPhoneCode(budget, (await createUser(rt)).id, "en", late.typed))).toBe("sms.budget");
    expect(await smsTo(late.e164)).toEqual([]);
    expect(await smsBudgetToday(rt.database.db, budget.config, now)).toEqual({ used: used + 1, limit: used + 1 });
  });

  it("an alert SMS past the day budget is not sent, and the delivery says so", async () => {
    const owner = await createUser(rt);
    const phone = aNumber();
    await addContact(deps, owner.id, { name: "Bo", email: "", phone: phone.typed });
    const [invite] = await smsTo(phone.e164);
    await confirmContact(deps, tokenOf(invite!, "/t/c/"), codeIn(invite!));
    const item = await paidItem(owner.id, "Wallet");
    const used = (await smsBudgetToday(rt.database.db, deps.config, now)).used;
    const spent = { ...deps, config: { ...deps.config, sms: { ...deps.config.sms, dailyBudget: used } } };
    const { conversationId } = await sendFinderMessage(
      spent,
      item,
      { message: "found your wallet", contact: "", captchaToken: "", js: false, trap: false },
      { ip: "198.51.100.7", lang: "en", viewerId: null },
    );
    expect(await smsTo(phone.e164)).toHaveLength(1);
    const deliveries = await rt.database.db
      .selectFrom("alert_deliveries")
      .select(["channel", "status"])
      .where("conversationId", "=", conversationId)
      .where("recipientKind", "=", "contact")
      .execute();
    expect(deliveries).toEqual([{ channel: "sms", status: "blocked" }]);
  });
});
