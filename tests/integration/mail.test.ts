import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { enqueueMail } from "../../app/server/mail/mail.server";
import type { Runtime } from "../../app/server/runtime.server";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { freePort, startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(extra: Record<string, string>) {
  const db: TestDatabase = await createTestDatabase("mail");
  cleanups.push(() => db.drop());
  const env = testEnv(db, { MAIL_POLL_MS: "100", ...extra });
  const server: TestServer = await startServer(env);
  cleanups.push(() => server.stop());
  const rt: Runtime = await createTestRuntime({ ...env, BASE_URL: server.url });
  cleanups.push(() => rt.database.close());
  return { env, server, rt };
}

async function outboxRow(rt: Runtime, id: string) {
  return rt.database.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("mail outbox", () => {
  it("delivers a queued mail over SMTP with a plain-text and an HTML part and the reply-to", async () => {
    const smtp: TestSmtpServer = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const { rt } = await setup({ SMTP_URL: smtp.url, MAIL_FROM: "Hittad <no-reply@hittad.test>" });
    const id = await enqueueMail(
      rt.database.db,
      {
        to: "owner@example.test",
        subject: "Återställ ditt lösenord",
        text: "Hej!\n\nÖppna https://hittad.test/reset?token=abc för att välja ett nytt lösenord.",
        replyTo: "finder@example.test",
      },
      rt.clock(),
    );
    const mail = await smtp.waitForMail((m) => m.to.includes("owner@example.test"));
    expect(mail.subject).toBe("Återställ ditt lösenord");
    expect(mail.text).toContain("https://hittad.test/reset?token=abc");
    expect(mail.html).toContain('<a href="https://hittad.test/reset?token=abc">');
    expect(mail.from).toBe("no-reply@hittad.test");
    expect(mail.replyTo).toEqual(["finder@example.test"]);
    const row = await until(
      () => outboxRow(rt, id),
      (r) => r.status === "sent",
    );
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeGreaterThan(0);
  });

  it("keeps a mail while the mail server is down and delivers it when it is back", async () => {
    const port = await freePort();
    const { rt } = await setup({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const id = await enqueueMail(
      rt.database.db,
      { to: "later@example.test", subject: "Kept", text: "Still here" },
      rt.clock(),
    );
    const failed = await until(
      () => outboxRow(rt, id),
      (r) => r.attempts >= 1 && r.status === "pending",
    );
    expect(failed.lastError).toBeTruthy();
    const smtp = await startSmtpServer(port);
    cleanups.push(() => smtp.close());
    const mail = await smtp.waitForMail((m) => m.subject === "Kept", 20_000);
    expect(mail.text).toContain("Still here");
    expect(
      (
        await until(
          () => outboxRow(rt, id),
          (r) => r.status === "sent",
        )
      ).attempts,
    ).toBeGreaterThanOrEqual(2);
  });

  it("without SMTP_URL writes each mail as an .eml file in MAIL_OUTBOX_DIR", async () => {
    const { rt, env } = await setup({});
    const id = await enqueueMail(
      rt.database.db,
      { to: "file@example.test", subject: "To a file", text: "Body" },
      rt.clock(),
    );
    await until(
      () => outboxRow(rt, id),
      (r) => r.status === "sent",
    );
    const files = fs.readdirSync(env.MAIL_OUTBOX_DIR!).filter((f) => f.endsWith(`${id}.eml`));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(env.MAIL_OUTBOX_DIR!, files[0]!), "utf8");
    expect(eml).toContain("Subject: To a file");
    expect(eml).toContain("To: file@example.test");
  });

  it("outbox files are owner-only (0600 in a 0700 folder) and the log names no recipient", async () => {
    const { rt, env, server } = await setup({});
    const id = await enqueueMail(
      rt.database.db,
      {
        to: "private.person@example.test",
        subject: "Reset for Private Person",
        text: "https://hittad.test/resetpassword/new?token=secret-token",
      },
      rt.clock(),
    );
    await until(
      () => outboxRow(rt, id),
      (r) => r.status === "sent",
    );
    const file = fs.readdirSync(env.MAIL_OUTBOX_DIR!).find((f) => f.endsWith(`${id}.eml`))!;
    expect(fs.statSync(path.join(env.MAIL_OUTBOX_DIR!, file)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(env.MAIL_OUTBOX_DIR!).mode & 0o777).toBe(0o700);
    // Log lines are written in batches, at least every 100 ms (decision 021).
    await expect.poll(() => server.logs(), { timeout: 2000, interval: 50 }).toContain(id);
    const logs = server.logs();
    expect(logs).not.toContain("private.person@example.test");
    expect(logs).not.toContain("Private Person");
    expect(logs).not.toContain("secret-token");
  });
});
