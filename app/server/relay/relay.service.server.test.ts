/**
 * The finder-to-owner relay on an in-memory SQLite through the real migrations
 * (decision 011): who may read and answer, what the finder gets to see, the limits, the
 * mails and the 180-day retention by the clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFinderMessage, type FinderMessageInput } from "~/lib/domain/relay";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { runHousekeeping } from "../jobs/jobs.service.server";
import { createItem, getItemPageView, getOwnedItem, updateOwnedItem } from "../items/items.service.server";
import { changeRole } from "../organisations/organisations.service.server";
import {
  createTestOrganisation,
  insertKeptPayment,
  joinOrganisation,
  signUpOwner,
} from "../../../tests/support/service-fixtures";
import { relayErrors } from "./relay.http.server";
import { countUnreadOfOwner } from "./relay.repository.server";
import {
  confirmReturn,
  CONVERSATION_RETENTION_MS,
  continueFinderConversation,
  countOwnerUnread,
  listOwnerConversations,
  confirmFinderMail,
  openFinderThread,
  openOwnerConversation,
  RelayError,
  replyAsOwner,
  sendFinderMessage,
} from "./relay.service.server";

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

describe("per-item contact visibility", () => {
  it("a private item's contact info is left out of the finder's page view, kept in the owner's", async () => {
    const owner = await user();
    const id = await paidItem(owner.id, "private");
    const finderView = await getItemPageView(deps, id, null);
    expect(finderView).toMatchObject({ kind: "item", contactInfo: null, canMessage: true });
    expect(JSON.stringify(finderView)).not.toContain("070-123");
    expect(await getItemPageView(deps, id, owner.id)).toMatchObject({ contactInfo: expect.stringContaining("070") });
  });

  it("a public item shows its contact info and still takes messages", async () => {
    const owner = await user();
    const id = await paidItem(owner.id, "public");
    expect(await getItemPageView(deps, id, null)).toMatchObject({ contactInfo: expect.any(String), canMessage: true });
  });
});

describe("finder messages", () => {
  it("start a conversation with a 256-bit token; the owner gets a mail in their language with a maps link", async () => {
    const owner = await user("sv");
    const id = await paidItem(owner.id);
    const { token, conversationId } = await sendFinderMessage(
      deps,
      id,
      input({ message: "Hittade den vid busshållplatsen", contact: "", latitude: "59.3293", longitude: "18.0686" }),
      meta(),
    );
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: owner.email, replyTo: null });
    expect(mails[0]!.subject).toBe("En upphittare har skrivit till dig om Blå ryggsäck");
    expect(mails[0]!.text).toContain("Hittade den vid busshållplatsen");
    expect(mails[0]!.text).toContain("https://www.google.com/maps/search/?api=1&query=59.3293,18.0686");
    expect(mails[0]!.text).toContain(`http://localhost:3000/messages/${conversationId}`);
  });

  it("an owner whose email is not verified gets no relay mail; the message waits in their conversations", async () => {
    const owner = await user("en", false);
    const id = await paidItem(owner.id);
    await sendFinderMessage(deps, id, input({ message: "Found it at the station", contact: "" }), meta());
    expect((await outbox()).filter((m) => m.to === owner.email)).toHaveLength(0);
    const list = await listOwnerConversations(deps, owner.id);
    expect(list).toHaveLength(1);
  });

  it("mail the private link to a finder who gave an email address, in the finder's language", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const { token } = await sendFinderMessage(
      deps,
      id,
      input({ message: "Found it", contact: "finder@example.test" }),
      { ...meta(), lang: "sv" },
    );
    const toFinder = (await outbox()).filter((m) => m.to === "finder@example.test");
    expect(toFinder).toHaveLength(1);
    expect(toFinder[0]!.subject).toBe("Ditt meddelande har skickats till ägaren");
    expect(toFinder[0]!.text).toContain(`/m/${token}`);
    expect(toFinder[0]!.text).not.toContain(owner.email);
  });

  it("are refused for an unpaid item, a missing one and the owner's own", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    await deps.db.updateTable("products").set({ payed: 0 }).where("id", "=", id).execute();
    expect(await codeOf(sendFinderMessage(deps, id, input({ message: "x", contact: "" }), meta()))).toBe("notFound");
    expect(await codeOf(sendFinderMessage(deps, "A1b2C3d4E5", input({ message: "x", contact: "" }), meta()))).toBe(
      "notFound",
    );
    const paid = await paidItem(owner.id);
    expect(
      await codeOf(
        sendFinderMessage(deps, paid, input({ message: "x", contact: "" }), { ...meta(), viewerId: owner.id }),
      ),
    ).toBe("notFound");
  });

  it("with the honeypot filled in are refused and store nothing", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const code = await codeOf(
      sendFinderMessage(deps, id, input({ message: "buy now", contact: "", website: "x" }), meta()),
    );
    expect(code).toBe("honeypot");
    expect(relayErrors.honeypot.status).toBe(400);
    expect(await deps.db.selectFrom("conversations").selectAll().execute()).toHaveLength(0);
  });

  it("sent by a page where JavaScript ran need a captcha solution", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    expect(await codeOf(sendFinderMessage(deps, id, input({ message: "hi", contact: "", js: "1" }), meta()))).toBe(
      "captcha.missing",
    );
    expect(
      await codeOf(sendFinderMessage(deps, id, input({ message: "hi", contact: "", captchaToken: "forged" }), meta())),
    ).toBe("captcha.invalid");
  });
});

describe("conversations", () => {
  it("the unread count covers exactly the items the user manages: their own, an administered organisation's, the ones assigned to them while a member", async () => {
    const admin = await signUpOwner(deps, { prefix: "unread-admin" });
    const member = await signUpOwner(deps, { prefix: "unread-member" });
    const outsider = await signUpOwner(deps, { prefix: "unread-outsider" });
    const org = await createTestOrganisation(deps, admin);
    await joinOrganisation(deps, org, member, "member");
    const laptop = {
      name: "Laptop",
      findFee: 0,
      prodType: "laptop",
      contactInfo: "Reception",
      contactVisibility: "private",
      payment: "year",
      intent: "payLater",
    } as const;
    const orgItem = async (assignTo: string | null) => {
      const id = await createItem(deps, admin.id, laptop, "en", org, assignTo);
      await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", id).execute();
      return id;
    };
    const items = [
      await paidItem(admin.id),
      await orgItem(null),
      await orgItem(member.id),
      await paidItem(outsider.id),
    ];
    for (const [i, id] of items.entries()) {
      await sendFinderMessage(deps, id, input({ message: `found ${i}`, contact: "" }), meta(`203.0.113.${20 + i}`));
    }
    // Another organisation's unread message is nobody's here but its own admin's.
    const otherAdmin = await signUpOwner(deps, { prefix: "unread-other-admin" });
    const otherOrg = await createTestOrganisation(deps, otherAdmin);
    const otherItem = await createItem(deps, otherAdmin.id, laptop, "en", otherOrg, null);
    await deps.db.updateTable("products").set({ payed: 1, paidUntil: null }).where("id", "=", otherItem).execute();
    await sendFinderMessage(deps, otherItem, input({ message: "found", contact: "" }), meta("203.0.113.30"));
    // Both ways of counting an administered organisation (item by item for a small one,
    // from the unread messages for a large one) give the same numbers.
    const counts = async (userId: string) => [
      await countOwnerUnread(deps, userId),
      await countUnreadOfOwner(deps.db, userId, 0),
    ];
    expect(await counts(admin.id)).toEqual([3, 3]);
    expect(await counts(member.id)).toEqual([1, 1]);
    expect(await counts(outsider.id)).toEqual([1, 1]);
    expect(await counts(otherAdmin.id)).toEqual([1, 1]);
    await changeRole(deps, admin.id, org, member.id, "admin");
    expect(await counts(member.id)).toEqual([2, 2]);
    await changeRole(deps, admin.id, org, member.id, "member");
    // A member who is no longer one (their assignment left behind) sees none of it.
    await deps.db.deleteFrom("organisation_members").where("userId", "=", member.id).execute();
    expect(await counts(member.id)).toEqual([0, 0]);
    expect(await counts(admin.id)).toEqual([3, 3]);
  });

  it("the owner reads them newest first with unread counts, summed over every conversation of an item; opening one marks it read", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const first = await sendFinderMessage(deps, id, input({ message: "first", contact: "" }), meta());
    deps.setNow(deps.clock() + 1000);
    const second = await sendFinderMessage(deps, id, input({ message: "second", contact: "" }), meta());
    deps.setNow(deps.clock() + 1000);
    await continueFinderConversation(deps, first.token, input({ message: "first again", contact: "" }), meta());
    expect(await countOwnerUnread(deps, owner.id)).toBe(3);
    const list = await listOwnerConversations(deps, owner.id);
    expect(list.map((c) => [c.id, c.unread, c.lastText])).toEqual([
      [first.conversationId, 2, "first again"],
      [second.conversationId, 1, "second"],
    ]);
    await openOwnerConversation(deps, owner.id, first.conversationId);
    expect(await countOwnerUnread(deps, owner.id)).toBe(1);
    // The owner's own answers are never unread to them.
    await replyAsOwner(deps, owner.id, first.conversationId, "Thank you!");
    expect(await countOwnerUnread(deps, owner.id)).toBe(1);
  });

  it("another user can neither read nor answer a conversation (notFound, 404)", async () => {
    const owner = await user();
    const other = await user();
    const id = await paidItem(owner.id);
    const { conversationId } = await sendFinderMessage(deps, id, input({ message: "hi", contact: "" }), meta());
    expect(await codeOf(openOwnerConversation(deps, other.id, conversationId))).toBe("notFound");
    expect(await codeOf(replyAsOwner(deps, other.id, conversationId, "mine now"))).toBe("notFound");
    expect(relayErrors.notFound.status).toBe(404);
    expect(await deps.db.selectFrom("conversation_messages").selectAll().execute()).toHaveLength(1);
  });

  it("a reply reaches the finder's page and mail without the owner's name, email or phone", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const { token, conversationId } = await sendFinderMessage(
      deps,
      id,
      input({ message: "hi", contact: "finder@example.test" }),
      meta(),
    );
    // The finder opens the link from the first mail: their address confirmed itself (decision 058).
    const first = (await outbox()).find((m) => m.to === "finder@example.test")!;
    await confirmFinderMail(deps, token, /\?c=([A-Za-z0-9_-]+)/.exec(first.text)![1]!);
    deps.setNow(deps.clock() + 60_000);
    await replyAsOwner(deps, owner.id, conversationId, "Thank you! Leave it at the reception.");
    const thread = await openFinderThread(deps, token);
    expect(thread.messages.map((m) => [m.author, m.text])).toEqual([
      ["finder", "hi"],
      ["owner", "Thank you! Leave it at the reception."],
    ]);
    const serialized = JSON.stringify(thread);
    for (const secret of [owner.email, "Olle", "070-123"]) expect(serialized).not.toContain(secret);
    // Found by its subject: the finder's confirmation can carry the same millisecond, and
    // the outbox has no order within one.
    const toFinder = (await outbox()).filter((m) => m.to === "finder@example.test");
    const reply = toFinder.find((m) => m.subject === "The owner has answered your message")!;
    expect(reply, toFinder.map((m) => m.subject).join(" | ")).toBeDefined();
    expect(reply.text).toContain("Leave it at the reception.");
    expect(reply.text).toContain(`/m/${token}`);
    for (const secret of [owner.email, "Olle", "070-123"]) expect(reply.text).not.toContain(secret);
    expect(reply.replyTo).toBeNull();
  });

  it("a wrong or malformed token finds nothing", async () => {
    expect(await codeOf(openFinderThread(deps, "x".repeat(43)))).toBe("notFound");
    expect(await codeOf(openFinderThread(deps, "../etc"))).toBe("notFound");
  });
});

describe("retention", () => {
  it("housekeeping deletes conversations 180 days after their last message, not a moment earlier", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const start = deps.clock();
    const old = await sendFinderMessage(deps, id, input({ message: "old", contact: "" }), meta());
    deps.setNow(start + 10 * 24 * 60 * 60_000);
    const kept = await sendFinderMessage(deps, id, input({ message: "newer", contact: "" }), meta());

    deps.setNow(start + CONVERSATION_RETENTION_MS);
    expect((await runHousekeeping(deps, "sqlite"))?.conversations).toBe(0);
    deps.setNow(start + CONVERSATION_RETENTION_MS + 1);
    expect((await runHousekeeping(deps, "sqlite"))?.conversations).toBe(1);

    const left = await deps.db.selectFrom("conversations").select("id").execute();
    expect(left.map((r) => r.id)).toEqual([kept.conversationId]);
    const messages = await deps.db.selectFrom("conversation_messages").select("conversationId").execute();
    expect(messages.map((m) => m.conversationId)).toEqual([kept.conversationId]);
    expect(await codeOf(openFinderThread(deps, old.token))).toBe("notFound");
  });

  it("a reply keeps a conversation alive for another 180 days", async () => {
    const owner = await user();
    const id = await paidItem(owner.id);
    const start = deps.clock();
    const c = await sendFinderMessage(deps, id, input({ message: "hi", contact: "" }), meta());
    deps.setNow(start + 100 * 24 * 60 * 60_000);
    await replyAsOwner(deps, owner.id, c.conversationId, "hello");
    deps.setNow(start + CONVERSATION_RETENTION_MS + 1);
    expect((await runHousekeeping(deps, "sqlite"))?.conversations).toBe(0);
  });
});

describe("a sticker that never stops helping a finder (issue #21 point 4)", () => {
  const lapse = (id: string, shape: { payed: 0 | 1 }) =>
    deps.db
      .updateTable("products")
      .set({ payed: shape.payed, paidUntil: deps.clock() - 1 })
      .where("id", "=", id)
      .execute();

  it("a lapsed item still relays a finder's message; the owner's mail says the sticker is inactive and links to /order", async () => {
    const owner = await user("sv");
    const item = await paidItem(owner.id, "public");
    await insertKeptPayment(deps.db, owner.id, item, deps.clock() - 400 * 24 * 60 * 60_000);
    // Both shapes of "lapsed": payed with paidUntil passed, and what a lapsed subscription writes (payed 0).
    for (const payed of [1, 0] as const) {
      await lapse(item, { payed });
      const view = await getItemPageView(deps, item, null);
      expect(view).toMatchObject({ kind: "notPaid", canMessage: true });
      expect(JSON.stringify(view)).not.toContain("070-123");
      await deps.db.deleteFrom("mail_outbox").execute();
      const { token } = await sendFinderMessage(deps, item, input({ message: `Hittade den (${payed})` }), meta());
      const [mail] = await outbox();
      expect(mail!.to).toBe(owner.email);
      expect(mail!.text).toContain(`Hittade den (${payed})`);
      expect(mail!.text).toContain("Ditt klistermärke är inte aktivt");
      expect(mail!.text).toContain(`${deps.config.baseUrl.origin}/order`);
      // The finder can write again at the link, as on a paid item.
      expect((await openFinderThread(deps, token)).canWrite).toBe(true);
      await continueFinderConversation(deps, token, input({ message: "Igen" }), meta("203.0.113.99"));
    }
  });

  it("a paid item's mail says nothing of reactivating", async () => {
    const owner = await user("en");
    const item = await paidItem(owner.id);
    await sendFinderMessage(deps, item, input({ message: "Found it" }), meta());
    const [mail] = await outbox();
    expect(mail!.text).not.toContain("/order");
    expect(mail!.text).not.toContain("not active");
  });

  it("an item never paid, or switched off by its owner, takes no message", async () => {
    const owner = await user();
    const never = await createItem(
      deps,
      owner.id,
      { name: "Keys", findFee: 50, prodType: "other", contactInfo: "x", payment: "year", intent: "payLater" },
      "en",
    );
    expect(await codeOf(sendFinderMessage(deps, never, input({ message: "Hi" }), meta()))).toBe("notFound");
    const off = await paidItem(owner.id);
    await deps.db.updateTable("products").set({ active: 0 }).where("id", "=", off).execute();
    expect(await codeOf(sendFinderMessage(deps, off, input({ message: "Hi" }), meta()))).toBe("notFound");
    expect(await outbox()).toEqual([]);
  });
});

describe("return confirmed, fee acknowledged (issue #21 point 3)", () => {
  it("only the owner can confirm; the finder then sees it with the fee agreed at that moment", async () => {
    const owner = await user("sv");
    const other = await user("en");
    const item = await paidItem(owner.id);
    const { token, conversationId } = await sendFinderMessage(deps, item, input({ message: "Hittad" }), meta());
    expect(await codeOf(confirmReturn(deps, other.id, conversationId))).toBe("notFound");
    expect(await codeOf(confirmReturn(deps, owner.id, "not-a-uuid"))).toBe("notFound");
    expect((await openFinderThread(deps, token)).returned).toBeNull();

    expect(await confirmReturn(deps, owner.id, conversationId)).toBe(true);
    const at = deps.clock();
    // A later change of the fee does not change what was agreed.
    await updateOwnedItem(deps, owner.id, item, {
      name: "Blå ryggsäck",
      findFee: 999,
      prodType: "other",
      contactInfo: "x",
      payment: "year",
      intent: "update",
    });
    expect((await openFinderThread(deps, token)).returned).toEqual({ at, fee: 200, currency: "SEK" });
    expect((await openOwnerConversation(deps, owner.id, conversationId)).returned).toEqual({
      at,
      fee: 200,
      currency: "SEK",
    });
  });

  it("mails the owner one short summary in their language, however often it is confirmed", async () => {
    const owner = await user("sv");
    const item = await paidItem(owner.id);
    const { conversationId } = await sendFinderMessage(deps, item, input({ message: "Hittad" }), meta());
    await deps.db.deleteFrom("mail_outbox").execute();
    expect(await confirmReturn(deps, owner.id, conversationId)).toBe(true);
    expect(await confirmReturn(deps, owner.id, conversationId)).toBe(false);
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(owner.email);
    expect(mails[0]!.subject).toBe("Du har fått tillbaka Blå ryggsäck");
    expect(mails[0]!.text).toContain("Sak: Blå ryggsäck");
    expect(mails[0]!.text).toContain("Hittelön: 200 kr");
    expect(mails[0]!.text).toMatch(/Datum: \d/);
  });

  it("takes the item out of lost mode", async () => {
    const owner = await user();
    const item = await paidItem(owner.id);
    await deps.db.updateTable("products").set({ lostAt: deps.clock() }).where("id", "=", item).execute();
    expect((await getOwnedItem(deps, owner.id, item)).lost).toBe(true);
    const { conversationId } = await sendFinderMessage(deps, item, input({ message: "Found" }), meta());
    await confirmReturn(deps, owner.id, conversationId);
    expect((await getOwnedItem(deps, owner.id, item)).lost).toBe(false);
    expect(await getItemPageView(deps, item, null)).toMatchObject({ kind: "item", lost: false });
  });
});
