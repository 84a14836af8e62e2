/**
 * One mailbox is one recipient, however it is spelt (decision 058): a "+tag" on any
 * domain, and dots or googlemail.com at Gmail, reach the same mailbox, so the suppression list is checked for the canonical form too and the
 * limits per recipient count on it. SQLite by default, PostgreSQL with DATABASE_URL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import { addContact } from "../../app/server/trusted-contacts/invite.service.server";
import { canonicalAddress, neverContactAgain } from "../../app/server/recipients/recipients.service.server";
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
  tdb = await createTestDatabase("canonical");
  rt = await createTestRuntime({ ...testEnv(tdb), BASE_URL: "https://hittad.example" });
  deps = { ...depsOf(rt) };
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

const mailTo = (to: string) =>
  rt.database.db.selectFrom("mail_outbox").select(["text"]).where("to", "=", to).orderBy("createdAt").execute();
const tokenOf = (text: string, prefix: string) => new RegExp(`${prefix}([A-Za-z0-9_-]+)`).exec(text)![1]!;
async function errorCode(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return (err as ServiceError<string>).code;
    throw err;
  }
  return "ok";
}
const invite = async (email: string) => {
  const inviter = await createUser(rt, { name: "Anna Inviter" });
  return errorCode(addContact(deps, inviter.id, { name: "Vic", email, phone: "" }));
};

describe("the canonical form of an address", () => {
  it.each([
    ["Victim+shop@Example.TEST", "victim@example.test"],
    ["v.ic.tim+x@gmail.com", "victim@gmail.com"],
    ["V.ictim@googlemail.com", "victim@gmail.com"],
    ["first.last@example.test", "first.last@example.test"],
  ])("%s is the mailbox %s", (address, canonical) => {
    expect(canonicalAddress("email", address)).toBe(canonical);
  });
});

describe("suppression and limits per recipient hold for every spelling of a mailbox", () => {
  it("a stop from victim@gmail.com refuses its plus-tag, dotted and googlemail spellings", async () => {
    const local = `victim${randomBytes(3).toString("hex")}`;
    expect(await invite(`${local}@gmail.com`)).toBe("ok");
    const [mail] = await mailTo(`${local}@gmail.com`);
    await neverContactAgain(deps, tokenOf(mail!.text, "/t/n/"));
    for (const spelling of [
      `${local}+x@gmail.com`,
      `${local.slice(0, 2)}.${local.slice(2)}@gmail.com`,
      `${local}@googlemail.com`,
    ]) {
      expect(await invite(spelling), spelling).toBe("recipient.suppressed");
    }
  });

  it("a stop from a tagged spelling covers the plain one (new stops store the canonical fingerprint)", async () => {
    const local = `victim${randomBytes(3).toString("hex")}`;
    expect(await invite(`${local}+news@example.test`)).toBe("ok");
    const [mail] = await mailTo(`${local}+news@example.test`);
    await neverContactAgain(deps, tokenOf(mail!.text, "/t/n/"));
    expect(await invite(`${local}@example.test`)).toBe("recipient.suppressed");
  });

  it("the day's two consent requests are counted on the mailbox, not the spelling", async () => {
    const local = `busy${randomBytes(3).toString("hex")}`;
    expect(await invite(`${local}+a@gmail.com`)).toBe("ok");
    expect(await invite(`${local}+b@gmail.com`)).toBe("ok");
    expect(await invite(`${local.slice(0, 1)}.${local.slice(1)}@gmail.com`)).toBe("recipient.busyToday");
  });
});
