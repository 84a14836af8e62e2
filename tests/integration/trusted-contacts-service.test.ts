/**
 * Trusted contacts' confirmation code and short links (decision
 * 040) at the service level, on SQLite and (DATABASE_URL=postgres://…) PostgreSQL, with a
 * clock the test moves: a contact reached only by SMS confirms with the six-digit code of
 * their SMS (valid 10 minutes, five tries counted before they are checked, new codes and
 * checks rate-limited per contact), a contact invited by mail with the link alone; every
 * SMS and mail to a contact carries a stop link that works, and an SMS with both its
 * links stays one part whatever the names.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { gsmLength, isGsm } from "../../app/lib/domain/sms-text";
import { fanOutAlert } from "../../app/server/alerts/fanout.service.server";
import { PHONE_CODE_TTL_MS } from "../../app/server/recipients/phone-code.server";
import {
  eraseContacts,
  getDeskContacts,
  removeContact,
  removeDeskContact,
  saveDeskItemChoices,
  ContactsError,
  listContacts,
} from "../../app/server/trusted-contacts/trusted-contacts.service.server";
import {
  confirmContact,
  readConfirmation,
  readStop,
  resendConfirmCode,
  stopContact,
} from "../../app/server/trusted-contacts/confirm.service.server";
import { addContact, addDeskContact } from "../../app/server/trusted-contacts/invite.service.server";
import { openContactReply } from "../../app/server/trusted-contacts/reply.service.server";
import { createItem } from "../../app/server/items/items.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import {
  changeRole,
  createOrganisation,
  removeMember,
} from "../../app/server/organisations/organisations.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import type { Deps } from "../../app/server/service-deps.server";
import { ServiceError } from "../../app/server/service-error.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { acceptCurrentDpa } from "../support/dpa";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { uniqueOrgNumber } from "../support/org-numbers";

let tdb: TestDatabase;
let rt: Runtime;
let now = Date.UTC(2026, 10, 26, 12);
let deps: Deps;
let ip = 0;

beforeAll(async () => {
  tdb = await createTestDatabase("trustedsvc");
  // No RATE_LIMIT_DISABLED: the code rules count whatever it says, the invite rule does not.
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

const smsTo = (to: string) =>
  rt.database.db
    .selectFrom("mail_outbox")
    .select(["text", "createdAt"])
    .where("channel", "=", "sms")
    .where("to", "=", to)
    .orderBy("createdAt")
    .orderBy("id")
    .execute()
    .then((rows) => rows.map((r) => r.text));
const mailTo = (to: string) =>
  rt.database.db
    .selectFrom("mail_outbox")
    .select(["text"])
    .where("channel", "=", "email")
    .where("to", "=", to)
    .orderBy("createdAt")
    .orderBy("id")
    .execute()
    .then((rows) => rows.map((r) => r.text));

const tokenOf = (text: string, prefix: string) => {
  const m = new RegExp(`${prefix}([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${prefix} in: ${text}`);
  return m[1]!;
};
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
const aNumber = () =>
  `+46 70 ${String(100 + Math.floor(Math.random() * 900))} ${String(1000 + Math.floor(Math.random() * 9000))}`;
const e164 = (typed: string) => `+46${typed.replace(/\D/g, "").slice(2)}`;

async function errorCode(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    // The contacts' own refusals, and who-may-be-messaged ones (RecipientsError, decision 046).
    expect(err).toBeInstanceOf(ServiceError);
    return { code: (err as ContactsError).code, params: (err as ContactsError).params };
  }
  throw new Error("expected a ContactsError");
}

/** An owner and a contact they named with only a number: the SMS's link token and code. */
async function invitedBySms(ownerName = "Olle Owner", language: "en" | "sv" = "en") {
  const owner = await createUser(rt, { name: ownerName, language });
  const typed = aNumber();
  await addContact(deps, owner.id, { name: "Bo", email: "", phone: typed });
  const [sms] = await smsTo(e164(typed));
  return { owner, phone: e164(typed), token: tokenOf(sms!, "/t/c/"), code: codeIn(sms!), sms: sms! };
}

async function paidItem(ownerId: string, name: string) {
  const id = await createItem(
    deps,
    ownerId,
    {
      name,
      findFee: 300,
      prodType: "mobile",
      contactInfo: "",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    },
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
    { ip: `203.0.${++ip % 250}.${ip % 200}`, lang: "en", viewerId: null },
  );

describe("confirming a contact reached only by SMS", () => {
  it("the SMS carries a six-digit code and the page's link, in one part; the link alone confirms nothing", async () => {
    const { token, sms } = await invitedBySms();
    expect(sms).toMatch(
      /Code \d{6}\. Confirm, or decline for good: https:\/\/hittad\.example\/t\/c\/[A-Za-z0-9_-]{12}$/,
    );
    expect(isGsm(sms) && gsmLength(sms)).toBeLessThanOrEqual(160);
    expect((await readConfirmation(deps, token)).step).toBe("code");
    expect(await errorCode(confirmContact(deps, token))).toMatchObject({ code: "code.invalid" });
    expect(await errorCode(confirmContact(deps, token, "12345"))).toMatchObject({ code: "code.invalid" });
    expect((await readConfirmation(deps, token)).step).toBe("code");
  });

  it("the right code confirms; a wrong one says how many tries are left", async () => {
    const { owner, token, code } = await invitedBySms();
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await errorCode(confirmContact(deps, token, wrong))).toEqual({ code: "code.wrong", params: { count: 4 } });
    await confirmContact(deps, token, ` ${code.slice(0, 3)} ${code.slice(3)} `);
    expect((await listContacts(deps, owner.id))[0]!.status).toBe("confirmed");
    expect((await readConfirmation(deps, token)).step).toBe("done");
  });

  it("five tries, counted before they are checked: after five wrong ones the right code is refused", async () => {
    const { owner, token, code } = await invitedBySms();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let left = 4; left >= 1; left--) {
      expect(await errorCode(confirmContact(deps, token, wrong))).toEqual({
        code: "code.wrong",
        params: { count: left },
      });
    }
    expect(await errorCode(confirmContact(deps, token, wrong))).toMatchObject({ code: "code.expired" });
    expect(await errorCode(confirmContact(deps, token, code))).toMatchObject({ code: "code.expired" });
    expect((await listContacts(deps, owner.id))[0]!.status).toBe("pending");
  });

  it("a code is valid 10 minutes; a new one can be sent (the number's second request of the day, its last), and only the newest works", async () => {
    const { phone, token, code } = await invitedBySms("Siv Ägare", "sv");
    now += PHONE_CODE_TTL_MS + 1;
    expect(await errorCode(confirmContact(deps, token, code))).toMatchObject({ code: "code.expired" });
    await resendConfirmCode(deps, token);
    const [, resent] = await smsTo(phone);
    expect(resent).toContain("din kod för att bekräfta numret");
    expect(resent).toMatch(/Kontakta mig aldrig: https:\/\/hittad\.example\/t\/n\//);
    // Two requests a day reach one number, whoever asks (decision 046): the invitation and this code.
    expect(await errorCode(resendConfirmCode(deps, token))).toMatchObject({ code: "recipient.busyToday" });
    expect(await smsTo(phone)).toHaveLength(2);
    const newest = codeIn(resent!);
    if (code !== newest) {
      expect(await errorCode(confirmContact(deps, token, code))).toMatchObject({ code: "code.wrong" });
    }
    await confirmContact(deps, token, newest);
    expect((await readConfirmation(deps, token)).step).toBe("done");
    // Confirmed: no more codes.
    expect(await errorCode(resendConfirmCode(deps, token))).toMatchObject({ code: "notFound" });
    now += 60 * 60_000;
  });

  it("at most fifteen checks per contact an hour, whatever codes were sent", async () => {
    const { token, code } = await invitedBySms();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await errorCode(confirmContact(deps, token, wrong));
    await resendConfirmCode(deps, token);
    // Five tries of the new code, then five more that find it used up: fifteen checks.
    for (let i = 0; i < 10; i++) await errorCode(confirmContact(deps, token, wrong));
    const [last] = (await smsTo((await readConfirmation(deps, token)).contact.phone!)).slice(-1);
    expect(await errorCode(confirmContact(deps, token, codeIn(last!)))).toMatchObject({ code: "rateLimited" });
    now += 60 * 60_000;
  });

  it("a contact invited by mail confirms the address with the link alone; the number beside it gets no code unless they ask", async () => {
    const owner = await createUser(rt, { name: "Per Owner" });
    const email = `kim-${randomBytes(3).toString("hex")}@example.test`;
    const typed = aNumber();
    await addContact(deps, owner.id, { name: "Kim", email, phone: typed });
    const [mail] = await mailTo(email);
    const token = tokenOf(mail!, "/t/c/");
    expect((await readConfirmation(deps, token)).step).toBe("email");
    await confirmContact(deps, token);
    expect((await readConfirmation(deps, token)).step).toBe("phone");
    const [view] = await listContacts(deps, owner.id);
    expect(view).toMatchObject({ status: "confirmed", emailState: "confirmed", phoneState: "pending" });
    expect(await smsTo(e164(typed))).toEqual([]);
  });
});

describe("the stop link in every message to a contact", () => {
  it("each SMS carries a short stop link (and a finder's message a short reply link) in one part, whatever the names", async () => {
    const { owner, phone, token, code } = await invitedBySms("Ærøskøbing Łukasz Wolfeschlegelsteinhausen");
    await confirmContact(deps, token, code);
    const item = await paidItem(owner.id, "Telefon 📱 med ett väldigt långt namn som inte får plats");
    const long = "Jag hittade den vid busshållplatsen 🚌 på Storgatan, ring mig så ses vi ".repeat(4);
    const { conversationId } = await finderWrites(item, long);
    await rt.database.db
      .transaction()
      .execute((trx) =>
        fanOutAlert(
          { ...deps, db: trx },
          { event: "lostScan", itemId: item, itemName: "Telefon", at: deps.clock(), scanLang: "en", device: "phone" },
          deps.clock(),
        ),
      );
    const [, finderSms, scanSms] = await smsTo(phone);
    for (const sms of [finderSms!, scanSms!]) {
      expect(isGsm(sms), sms).toBe(true);
      expect(gsmLength(sms), sms).toBeLessThanOrEqual(160);
      expect(sms).toMatch(/Stop: https:\/\/hittad\.example\/t\/s\/[A-Za-z0-9_-]{10}$/);
    }
    expect(finderSms).toMatch(/Answer: https:\/\/hittad\.example\/t\/r\/[A-Za-z0-9_-]{12} /);
    const reply = await openContactReply(deps, tokenOf(finderSms!, "/t/r/"));
    expect(reply.messages[0]!.text).toBe(long);
    expect(conversationId).toBeTruthy();

    const stop = tokenOf(scanSms!, "/t/s/");
    expect((await readStop(deps, stop)).stopped).toBe(false);
    await stopContact(deps, stop);
    expect((await listContacts(deps, owner.id))[0]!.status).toBe("stopped");
    expect(await errorCode(openContactReply(deps, tokenOf(finderSms!, "/t/r/")))).toMatchObject({ code: "notFound" });
    await finderWrites(item, "Are you there?");
    expect(await smsTo(phone)).toHaveLength(3);
  });

  it("each mail to a contact carries a stop link that stops them", async () => {
    const owner = await createUser(rt, { name: "Mia Owner" });
    const email = `ada-${randomBytes(3).toString("hex")}@example.test`;
    await addContact(deps, owner.id, { name: "Ada", email, phone: "" });
    await confirmContact(deps, tokenOf((await mailTo(email))[0]!, "/t/c/"));
    const item = await paidItem(owner.id, "Green phone");
    await finderWrites(item, "Found your green phone");
    await rt.database.db.transaction().execute((trx) =>
      fanOutAlert(
        { ...deps, db: trx },
        {
          event: "lostScan",
          itemId: item,
          itemName: "Green phone",
          at: deps.clock(),
          scanLang: "en",
          device: "phone",
        },
        deps.clock(),
      ),
    );
    const [, finderMail, scanMail] = await mailTo(email);
    for (const mail of [finderMail!, scanMail!])
      expect(mail).toMatch(/Stop getting these messages:\nhttps:\/\/hittad\.example\/t\/s\//);
    await stopContact(deps, tokenOf(finderMail!, "/t/s/"));
    expect((await listContacts(deps, owner.id))[0]!.status).toBe("stopped");
    await finderWrites(item, "Hello again");
    expect(await mailTo(email)).toHaveLength(3);
  });

  it("a short code that was never sent, or altered, opens nothing", async () => {
    for (const token of [randomBytes(9).toString("base64url").slice(0, 10), "AAAAAAAAAA"]) {
      expect(await errorCode(readStop(deps, token))).toMatchObject({ code: "notFound" });
    }
    for (const token of [randomBytes(9).toString("base64url").slice(0, 12), "AAAAAAAAAAAA"]) {
      expect(await errorCode(openContactReply(deps, token))).toMatchObject({ code: "notFound" });
    }
  });
});

describe("the desk's trusted contacts (an organisation's items assigned to nobody)", () => {
  async function desk({ dpa = true } = {}) {
    const admin = await createUser(rt, { name: "Ada Admin" });
    const member = await createUser(rt, { name: "Max Member" });
    const secondAdmin = await createUser(rt, { name: "Sam Second" });
    const org = await createOrganisation(deps, admin.id, {
      name: "Acme Reception",
      orgNumber: uniqueOrgNumber(),
      billingEmail: `billing-${randomBytes(3).toString("hex")}@example.test`,
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "90326",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    await insertMember(rt.database.db, { organisationId: org, userId: member.id, role: "member", createdAt: now });
    await insertMember(rt.database.db, { organisationId: org, userId: secondAdmin.id, role: "admin", createdAt: now });
    if (dpa) await acceptCurrentDpa(deps, admin.id, org);
    const item = async (name: string, assignedTo: string | null) => {
      const id = await createItem(
        deps,
        admin.id,
        { name, findFee: 0, prodType: "mobile", contactInfo: "", payment: "year", intent: "payLater" },
        "en",
        org,
      );
      await rt.database.db.updateTable("products").set({ payed: 1, assignedTo }).where("id", "=", id).execute();
      return id;
    };
    return { admin, member, secondAdmin, org, item };
  }

  it("only an admin names them, at most three; a member or an outsider is told nothing exists", async () => {
    const { admin, member, org } = await desk();
    const outsider = await createUser(rt);
    for (const who of [member, outsider]) {
      expect(await errorCode(getDeskContacts(deps, who.id, org))).toMatchObject({ code: "notFound" });
      expect(
        await errorCode(addDeskContact(deps, who.id, org, { name: "X", email: "x@example.test", phone: "" })),
      ).toMatchObject({ code: "notFound" });
    }
    for (let i = 0; i < 3; i++) {
      await addDeskContact(deps, admin.id, org, {
        name: `Desk ${i}`,
        email: `d${i}-${org.slice(0, 6)}@example.test`,
        phone: "",
      });
    }
    expect(
      await errorCode(addDeskContact(deps, admin.id, org, { name: "Four", email: "four@example.test", phone: "" })),
    ).toMatchObject({ code: "tooMany" });
    // They are the desk's, not the admin's own three.
    expect(await listContacts(deps, admin.id)).toEqual([]);
    const page = await getDeskContacts(deps, admin.id, org);
    expect(page.organisation).toBe("Acme Reception");
    expect(page.contacts.map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
    await removeDeskContact(deps, admin.id, org, page.contacts[0]!.id);
    expect(await errorCode(removeDeskContact(deps, member.id, org, page.contacts[1]!.id))).toMatchObject({
      code: "notFound",
    });
    expect((await getDeskContacts(deps, admin.id, org)).contacts).toHaveLength(2);
  });

  it("a confirmed desk contact gets the desk items' finder messages by SMS with stop and reply links, not an assigned item's; the per-item choice holds", async () => {
    const { admin, member, org, item } = await desk();
    const typed = aNumber();
    await addDeskContact(deps, admin.id, org, { name: "Rita Reception", email: "", phone: typed });
    const phone = e164(typed);
    const [invite] = await smsTo(phone);
    // The consent request names the admin by first name, never the organisation (decision 046).
    expect(invite).toContain("Ada asks you to be a trusted contact");
    expect(invite).not.toContain("Acme");
    await confirmContact(deps, tokenOf(invite!, "/t/c/"), codeIn(invite!));
    const deskItem = await item("Lost keys", null);
    const quietDeskItem = await item("Quiet umbrella", null);
    const assigned = await item("Max's laptop", member.id);
    const contactId = (await getDeskContacts(deps, admin.id, org)).contacts[0]!.id;
    await saveDeskItemChoices(deps, admin.id, org, new Map([[deskItem, new Set([contactId])]]), [
      deskItem,
      quietDeskItem,
    ]);

    const { conversationId } = await finderWrites(deskItem, "Keys found at the gate");
    await finderWrites(quietDeskItem, "Umbrella at the gate");
    await finderWrites(assigned, "Laptop at the gate");
    const sent = await smsTo(phone);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain("Acme Reception's Lost keys");
    expect(sent[1]).toMatch(/Stop: https:\/\/hittad\.example\/t\/s\/[A-Za-z0-9_-]{10}$/);
    // Recorded once (not once per admin), for every admin to see.
    const rows = await rt.database.db
      .selectFrom("alert_deliveries")
      .select(["recipientKind", "channel"])
      .where("conversationId", "=", conversationId)
      .where("recipientKind", "=", "desk")
      .execute();
    expect(rows).toEqual([{ recipientKind: "desk", channel: "sms" }]);

    // The reply link works, and goes through the relay as the desk's side.
    const replyToken = tokenOf(sent[1]!, "/t/r/");
    expect((await openContactReply(deps, replyToken)).owner).toBe("Acme Reception");
    // Once the item is assigned to someone, it is no longer the desk's: the link closes.
    await rt.database.db.updateTable("products").set({ assignedTo: member.id }).where("id", "=", deskItem).execute();
    expect(await errorCode(openContactReply(deps, replyToken))).toMatchObject({ code: "notFound" });
    await stopContact(deps, tokenOf(sent[1]!, "/t/s/"));
    expect((await getDeskContacts(deps, admin.id, org)).contacts[0]!.status).toBe("stopped");
  });

  it("finding 7: no desk contact is named before the organisation accepted the data processing agreement", async () => {
    const { admin, org } = await desk({ dpa: false });
    const input = { name: "Early", email: `early-${org.slice(0, 6)}@example.test`, phone: "" };
    expect(await errorCode(addDeskContact(deps, admin.id, org, input))).toMatchObject({ code: "dpaRequired" });
    expect((await getDeskContacts(deps, admin.id, org)).dpaAccepted).toBe(false);
    expect(await mailTo(input.email)).toEqual([]);
    await acceptCurrentDpa(deps, admin.id, org);
    await addDeskContact(deps, admin.id, org, input);
    expect((await getDeskContacts(deps, admin.id, org)).contacts).toHaveLength(1);
  });

  it("finding 7: an admin who was removed, or stepped down, removes no desk contact, by the desk's page or their own", async () => {
    const { admin, secondAdmin, member, org } = await desk();
    await addDeskContact(deps, admin.id, org, {
      name: "Kept A",
      email: `ka-${org.slice(0, 6)}@example.test`,
      phone: "",
    });
    await addDeskContact(deps, secondAdmin.id, org, {
      name: "Kept B",
      email: `kb-${org.slice(0, 6)}@example.test`,
      phone: "",
    });
    const [a, b] = (await getDeskContacts(deps, admin.id, org)).contacts;
    // The admin who named "Kept A" is removed; the other steps down to member.
    await removeMember(deps, secondAdmin.id, org, admin.id);
    await changeRole(deps, secondAdmin.id, org, member.id, "admin");
    await changeRole(deps, secondAdmin.id, org, secondAdmin.id, "member");
    for (const [who, contact] of [
      [admin.id, a!],
      [secondAdmin.id, b!],
    ] as const) {
      expect(await errorCode(removeDeskContact(deps, who, org, contact.id))).toMatchObject({ code: "notFound" });
      // Their own contacts' form: a desk contact is the organisation's, whoever named it.
      expect(await errorCode(removeContact(deps, who, contact.id))).toMatchObject({ code: "notFound" });
    }
    const names = (await getDeskContacts(deps, member.id, org)).contacts.map((c) => c.name);
    expect(names.sort()).toEqual(["Kept A", "Kept B"]);
  });

  it("erasing the admin who named them leaves them with the desk (another admin now answers for them)", async () => {
    const { admin, secondAdmin, org } = await desk();
    await addDeskContact(deps, admin.id, org, {
      name: "Kept",
      email: `kept-${org.slice(0, 6)}@example.test`,
      phone: "",
    });
    await eraseContacts(rt.database, admin.id);
    const row = await rt.database.db
      .selectFrom("trusted_contacts")
      .select(["userId", "organisationId"])
      .where("organisationId", "=", org)
      .executeTakeFirstOrThrow();
    expect(row.userId).toBe(secondAdmin.id);
  });
});
