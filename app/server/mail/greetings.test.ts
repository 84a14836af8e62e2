/**
 * Every mail to an account greets its holder by the first name (decision 018, decision 057):
 * "Hej Anna!", never the full name "Anna Maria Lind". The mails that used the full
 * name: the e-mail change (both mails), the account deleted and the stickers shipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { sendAccountDeletedMail } from "../account/account.mail.server";
import { sendEmailChangeMails } from "../auth/accounts.mail.server";
import { enqueueShippedMail } from "../fulfil/fulfil.mail.server";
import { signUpOwner } from "../../../tests/support/service-fixtures";

let deps: ServiceTestDeps;
beforeAll(async () => {
  deps = await createServiceDeps();
});
afterAll(async () => {
  await deps?.close();
});

const FULL = "Anna Maria Lind";
const firstLineTo = async (to: string) => {
  const mail = await deps.db
    .selectFrom("mail_outbox")
    .select("text")
    .where("to", "=", to)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return mail.text.split("\n")[0];
};

describe("mail greetings", () => {
  it("the e-mail change mails greet by the first name, in both languages", async () => {
    for (const language of ["en", "sv"] as const) {
      // Only a verified account may ask for the change (decision 058).
      const { id: userId, email: oldEmail } = await signUpOwner(deps, { language, name: FULL, address: false });
      const newEmail = `new-${language}@example.test`;
      await sendEmailChangeMails(deps.db, deps.config, {
        userId,
        oldEmail,
        newEmail,
        name: FULL,
        language,
        token: "t",
        now: deps.clock(),
      });
      for (const to of [oldEmail, newEmail]) {
        const line = await firstLineTo(to);
        expect(line).toContain("Anna");
        expect(line).not.toContain("Lind");
      }
    }
  });

  it("the account-deleted mail greets by the first name", async () => {
    await sendAccountDeletedMail(deps.db, deps.config, {
      email: "gone@example.test",
      name: FULL,
      language: "sv",
      now: deps.clock(),
    });
    const line = await firstLineTo("gone@example.test");
    expect(line).toContain("Anna");
    expect(line).not.toContain("Lind");
  });

  it("the stickers-shipped mail greets by the first name", async () => {
    await enqueueShippedMail(
      deps.db,
      deps.config,
      {
        id: "s1",
        kind: "order",
        orderId: "o1",
        productId: null,
        mode: null,
        userId: "u1",
        ownerName: FULL,
        ownerEmail: "shipped@example.test",
        ownerEmailVerified: true,
        lang: "en",
        address: null,
        count: 1,
        status: "shipped",
        createdAt: 0,
        shippedAt: Date.UTC(2026, 10, 28),
        shippedBy: null,
        trackingNumber: null,
        droppedAt: null,
        note: null,
        items: [],
      } as Parameters<typeof enqueueShippedMail>[2],
      deps.clock(),
    );
    const line = await firstLineTo("shipped@example.test");
    expect(line).toContain("Anna");
    expect(line).not.toContain("Lind");
  });
});
