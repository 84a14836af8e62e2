/**
 * The alert fan-out's rules (fanout.service.server.ts; decisions 026, 033, 040, 046), on an
 * in-memory SQLite through the real migrations. Each rule is named once; "held by" points at
 * the test that already protects it, the rest are here.
 *
 * fanOutAlert
 *  1. One event becomes one recorded delivery per recipient × channel, queued in the one
 *     outbox. Held by tests/integration/alerts.test.ts "mails and texts the owner, records each delivery …".
 *  2. Everyone who manages the item hears, and only they. Held by
 *     tests/integration/organisation-items.test.ts "when the assigned member leaves, the desk still gets every message …".
 *  3. Each event goes only by the channels its recipient chose for it. Here (push by
 *     tests/integration/push.test.ts "no push when the owner turned it off for finder messages …").
 *  4. Email only to a verified account address. Here.
 *  5. SMS only to a verified number. Here.
 *  6. An SMS past the cost guard is recorded blocked and the owner told once by mail; past
 *     Hittad's day budget nobody is told. Held by tests/integration/alerts.test.ts "the SMS cost guard"
 *     and tests/integration/consent.test.ts "an alert SMS past the day budget is not sent …".
 *  7. Push: one delivery per subscribed device. Held by tests/integration/push.test.ts
 *     "a finder's message reaches the owner's device through the fan-out …".
 *  8. Trusted contacts hear of finder messages and lost-mode scans, never of ordinary scans. Here.
 *  9. A contact gets mail only at a confirmed address, SMS only at a confirmed number, nothing
 *     once suppressed or left out for the item. Held by tests/integration/consent.test.ts
 *     (finding 1) and tests/integration/trusted-contacts.test.ts "an item the owner unticked …".
 * 10. The desk's contacts hear of an organisation's item assigned to nobody, once however many
 *     admins it has, recorded as the desk's. Here (the unassigned and per-item rules by
 *     tests/integration/trusted-contacts-service.test.ts "a confirmed desk contact gets …").
 * 11. The deliveries commit with the event: a crash loses neither or both. Held by
 *     tests/integration/alerts-crash.test.ts.
 * hasReachableRecipient
 * 12. A throttled alert is claimed only when someone can be reached: a verified address or a
 *     verified number. Here.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "~/i18n/resources.server";
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from "~/lib/domain/alerts";
import type { ProductInput } from "~/lib/forms/product-form";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createTestOrganisation, joinOrganisation, signUpOwner } from "../../../tests/support/service-fixtures";
import { insertContact } from "../trusted-contacts/trusted-contacts.repository.server";
import { createItem } from "../items/items.service.server";
import type { AlertFacts } from "./alert-facts.server";
import { confirmPhone, setPendingPhone, writeSettings } from "./alerts.repository.server";
import { hasReachableRecipient } from "../access/item-access.repository.server";
import { fanOutAlert } from "./fanout.service.server";

const ITEM: ProductInput = {
  name: "Red umbrella",
  findFee: 100,
  prodType: "other",
  contactInfo: "",
  contactVisibility: "private",
  payment: "year",
  intent: "payLater",
};

const START = Date.UTC(2026, 10, 23, 12);
let deps: ServiceTestDeps;

let seq = 0;

// One database for the file: each test makes its own owners, items, addresses and numbers.
beforeAll(async () => {
  deps = await createServiceDeps({}, START);
});
afterAll(async () => {
  await deps.close();
});

const unique = (name: string) => `${name}-${++seq}@example.test`;
const aNumber = () => `+46701${String(1_000_000 + ++seq).slice(1)}`;

const scan = (itemId: string, event: "scan" | "lostScan"): AlertFacts => ({
  event,
  itemId,
  itemName: ITEM.name,
  at: START,
  scanLang: "en",
  device: "phone",
});

const outbox = (to: string) =>
  deps.db.selectFrom("mail_outbox").select(["channel", "text"]).where("to", "=", to).execute();
const deliveries = (itemId: string) =>
  deps.db.selectFrom("alert_deliveries").selectAll().where("itemId", "=", itemId).execute();

const quota = async (key: string) =>
  Number(
    (await deps.db.selectFrom("sms_quotas").select("count").where("key", "=", key).executeTakeFirst())?.count ?? 0,
  );

function settings(change: (s: AlertSettings) => void): AlertSettings {
  const s = structuredClone(DEFAULT_ALERT_SETTINGS);
  change(s);
  return s;
}

/** A trusted contact whose address confirmed itself (decision 046). */
async function confirmedContact(userId: string, email: string, organisationId: string | null = null) {
  const id = randomUUID();
  await insertContact(deps.db, {
    id,
    userId,
    name: "Bo",
    email,
    phone: null,
    language: "en",
    confirmTokenHash: randomUUID(),
    confirmSentAt: START,
    confirmedAt: START,
    stoppedAt: null,
    createdAt: START,
    confirmCodeHash: null,
    confirmCodeExpiresAt: null,
    confirmCodeAttempts: 0,
    organisationId,
    emailConfirmedAt: START,
    phoneConfirmedAt: null,
  });
  return id;
}

/** A number waiting for its code; answers it. */
async function withNumber(userId: string): Promise<string> {
  const phone = aNumber();
  await setPendingPhone(deps.db, userId, { phone, codeHash: "x", expiresAt: START + 60_000 });
  return phone;
}

describe("fanOutAlert", () => {
  it("each event goes only by the channels its recipient chose for it", async () => {
    const owner = await signUpOwner(deps, { prefix: "fanout" });
    const item = await createItem(deps, owner.id, ITEM, "en");
    await writeSettings(
      deps.db,
      owner.id,
      settings((s) => {
        s.scan.email = false;
        s.lostScan.email = true;
      }),
      START,
    );
    expect(await fanOutAlert(deps, scan(item, "scan"), START)).toMatchObject({ email: 0, sms: 0, push: 0 });
    expect(await outbox(owner.email)).toHaveLength(0);
    expect(await fanOutAlert(deps, scan(item, "lostScan"), START)).toMatchObject({ email: 1 });
    expect(await outbox(owner.email)).toHaveLength(1);
  });

  it("mails only a verified account address", async () => {
    const owner = await signUpOwner(deps, { prefix: "fanout", verified: false });
    const item = await createItem(deps, owner.id, ITEM, "en");
    expect(await fanOutAlert(deps, scan(item, "lostScan"), START)).toMatchObject({ email: 0 });
    expect(await outbox(owner.email)).toHaveLength(0);
    expect(await deliveries(item)).toHaveLength(0);
  });

  it("texts only a verified number: one still waiting for its code gets nothing", async () => {
    const owner = await signUpOwner(deps, { prefix: "fanout" });
    const item = await createItem(deps, owner.id, ITEM, "en");
    await writeSettings(
      deps.db,
      owner.id,
      settings((s) => {
        s.lostScan.sms = true;
      }),
      START,
    );
    const phone = await withNumber(owner.id);
    expect(await fanOutAlert(deps, scan(item, "lostScan"), START)).toMatchObject({ sms: 0 });
    expect(await outbox(phone)).toHaveLength(0);
    await confirmPhone(deps.db, owner.id, phone, START);
    expect(await fanOutAlert(deps, scan(item, "lostScan"), START)).toMatchObject({ sms: 1 });
    expect((await outbox(phone)).map((m) => m.channel)).toEqual(["sms"]);
    // Counted against the item's day and the owner's 30 days (sms-guard.server.ts).
    expect(await quota(`item:${item}`)).toBe(1);
    expect(await quota(`account:${owner.id}`)).toBe(1);
  });

  it("trusted contacts hear of a lost-mode scan, never of an ordinary scan", async () => {
    const owner = await signUpOwner(deps, { prefix: "fanout" });
    const item = await createItem(deps, owner.id, ITEM, "en");
    const email = unique("bo");
    await confirmedContact(owner.id, email);
    await fanOutAlert(deps, scan(item, "scan"), START);
    expect(await outbox(email)).toHaveLength(0);
    await fanOutAlert(deps, scan(item, "lostScan"), START);
    expect(await outbox(email)).toHaveLength(1);
    const toContact = (await deliveries(item)).filter((d) => d.recipientKind === "contact");
    expect(toContact).toHaveLength(1);
  });

  it("the desk's contact hears once of an organisation's unassigned item, however many admins, as the desk's", async () => {
    const admin = await signUpOwner(deps, { prefix: "fanout" });
    const other = await signUpOwner(deps, { prefix: "fanout" });
    const org = await createTestOrganisation(deps, admin);
    await joinOrganisation(deps, org, other, "admin");
    const item = await createItem(deps, admin.id, ITEM, "en", org);
    await deps.db.updateTable("products").set({ assignedTo: null }).where("id", "=", item).execute();
    const email = unique("desk");
    const desk = await confirmedContact(admin.id, email, org);
    const out = await fanOutAlert(deps, scan(item, "lostScan"), START);
    // Each admin by mail, and the desk's contact once.
    expect(out.email).toBe(3);
    expect(await outbox(email)).toHaveLength(1);
    const rows = (await deliveries(item)).filter((d) => d.contactId === desk);
    expect(rows.map((r) => r.recipientKind)).toEqual(["desk"]);
  });
});

describe("hasReachableRecipient", () => {
  it("only when someone who manages the item has a verified address or a verified number", async () => {
    const owner = await signUpOwner(deps, { prefix: "fanout", verified: false });
    const item = await createItem(deps, owner.id, ITEM, "en");
    expect(await hasReachableRecipient(deps.db, item)).toBe(false);
    const phone = await withNumber(owner.id);
    expect(await hasReachableRecipient(deps.db, item)).toBe(false);
    await confirmPhone(deps.db, owner.id, phone, START);
    expect(await hasReachableRecipient(deps.db, item)).toBe(true);
    const mailed = await signUpOwner(deps, { prefix: "fanout" });
    expect(await hasReachableRecipient(deps.db, await createItem(deps, mailed.id, ITEM, "en"))).toBe(true);
  });
});
