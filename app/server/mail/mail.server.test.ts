import { describe, expect, it } from "vitest";
import { createServiceDeps } from "../../../tests/support/service-db";
import { enqueueMail, enqueueSms, startMailWorker, textToHtml } from "./mail.server";

describe("mail", () => {
  it("makes an escaped HTML part from text, keeping links and paragraphs", () => {
    const html = textToHtml('Hi <b>"you"</b>\nline two\n\nReset: https://hittad.se/reset?t=a&b=1');
    expect(html).toContain("<p>Hi &lt;b&gt;&quot;you&quot;&lt;/b&gt;<br>line two</p>");
    expect(html).toContain('<a href="https://hittad.se/reset?t=a&amp;b=1">');
    expect(html).not.toContain("<b>");
  });
});

describe("the outbox's lease (decision 033)", () => {
  it("a row an instance claimed waits for its lease; once the lease has passed (the instance died) another sends it", async () => {
    const deps = await createServiceDeps();
    const live = await enqueueSms(deps.db, { to: "+46700000001", text: "claimed by a live instance" }, deps.clock());
    const dead = await enqueueSms(deps.db, { to: "+46700000002", text: "claimed by a killed instance" }, deps.clock());
    const now = deps.clock();
    const claimed = (id: string, lockedUntil: number) =>
      deps.db
        .updateTable("mail_outbox")
        .set({ status: "sending", attempts: 1, lockedUntil })
        .where("id", "=", id)
        .execute();
    await claimed(live, now + 60_000);
    await claimed(dead, now - 1);
    const sent: string[] = [];
    const worker = startMailWorker({ ...deps, senders: { sms: { send: async (row) => void sent.push(row.to) } } });
    try {
      await worker.drain();
      expect(sent).toEqual(["+46700000002"]);
    } finally {
      await worker.stop();
      await deps.close();
    }
  });
});

describe("the outbox's senders are the ports on Deps (issue #45)", () => {
  it("each row goes through its own channel's sender from deps.senders, and a channel without one waits", async () => {
    const deps = await createServiceDeps();
    await enqueueMail(deps.db, { to: "owner@example.test", subject: "Hi", text: "by mail" }, deps.clock());
    await enqueueSms(deps.db, { to: "+46700000003", text: "by SMS" }, deps.clock());
    const sent: string[] = [];
    const fake = (channel: string) => ({ send: async (row: { to: string }) => void sent.push(`${channel}:${row.to}`) });
    const worker = startMailWorker({ ...deps, senders: { email: fake("email") } });
    try {
      await worker.drain();
      expect(sent).toEqual(["email:owner@example.test"]);
      const sms = await deps.db.selectFrom("mail_outbox").select("status").where("channel", "=", "sms").execute();
      expect(sms).toEqual([{ status: "pending" }]);
    } finally {
      await worker.stop();
      await deps.close();
    }
  });
});
