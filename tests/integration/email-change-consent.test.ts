/**
 * The email change's mail to the new address is a consent request (decision 058): only a
 * verified account asks, the address must not be on the suppression list, the limits per
 * recipient hold, the mail carries the never link and greets by a first name only — never
 * the account's 200-character name. Also through better-auth's own endpoint, which a
 * client can call without the account page. SQLite by default, PostgreSQL with DATABASE_URL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { requestEmailChange } from "../../app/server/account/account.service.server";
import { addContact } from "../../app/server/trusted-contacts/invite.service.server";
import { neverContactAgain } from "../../app/server/recipients/recipients.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import type { Deps } from "../../app/server/service-deps.server";
import { ServiceError } from "../../app/server/service-error.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";

let tdb: TestDatabase;
let rt: Runtime;
let deps: Deps;

beforeAll(async () => {
  tdb = await createTestDatabase("email_change");
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
    return "refused";
  }
  return "ok";
}

describe("the email change's mail to the new address", () => {
  it("greets by a first name only and carries the never link", async () => {
    const victim = victimAddress();
    const attacker = await createUser(rt, { name: PHISH });
    expect(await errorCode(requestEmailChange(deps, new Headers({ cookie: attacker.cookie }), { email: victim }))).toBe(
      "ok",
    );
    const [mail] = await mailTo(victim);
    expect(mail!.text).not.toContain("evil.example");
    expect(mail!.text).not.toContain("URGENT");
    expect(mail!.text).toContain("/t/n/");
    const [notice] = await mailTo(attacker.email);
    expect(notice!.text).not.toContain("evil.example");
  });

  it("needs a verified account, on the account page and at better-auth's own endpoint", async () => {
    const victim = victimAddress();
    const attacker = await createUser(rt, { name: "Mallory", verified: false });
    const headers = new Headers({ cookie: attacker.cookie });
    expect(await errorCode(requestEmailChange(deps, headers, { email: victim }))).toBe("emailUnverified");
    // better-auth queues its mail in the background: give it time to (not) arrive.
    await rt.auth.api.changeEmail({ body: { newEmail: victim }, headers }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailTo(victim)).toHaveLength(0);
  });

  it("is refused for an address that said never, and counts against the limits per recipient", async () => {
    const victim = victimAddress();
    const inviter = await createUser(rt, { name: "Anna" });
    await addContact(deps, inviter.id, { name: "Vic", email: victim, phone: "" });
    await neverContactAgain(deps, tokenOf((await mailTo(victim))[0]!.text, "/t/n/"));
    const attacker = await createUser(rt, { name: "Mallory" });
    const headers = new Headers({ cookie: attacker.cookie });
    expect(await errorCode(requestEmailChange(deps, headers, { email: victim }))).toBe("recipient.suppressed");
    expect(await mailTo(victim)).toHaveLength(1);

    const busy = victimAddress();
    for (let i = 0; i < 2; i++) {
      const asker = await createUser(rt, { name: "Bea" });
      const h = new Headers({ cookie: asker.cookie });
      expect(await errorCode(requestEmailChange(deps, h, { email: busy }))).toBe("ok");
    }
    expect(await errorCode(requestEmailChange(deps, headers, { email: busy }))).toBe("recipient.busyToday");
    expect(await mailTo(busy)).toHaveLength(2);
  });
});
