import { describe, expect, it } from "vitest";
import { createServiceDeps } from "../../../tests/support/service-db";
import { backoffMs, enqueueSms, startMailWorker, textToHtml, withoutAddresses } from "./mail.server";

describe("mail", () => {
  it("backs off exponentially from 5 seconds to at most an hour", () => {
    expect(backoffMs(1)).toBe(5_000);
    expect(backoffMs(2)).toBe(10_000);
    expect(backoffMs(4)).toBe(40_000);
    expect(backoffMs(30)).toBe(3_600_000);
  });
  it("makes an escaped HTML part from text, keeping links and paragraphs", () => {
    const html = textToHtml('Hi <b>"you"</b>\nline two\n\nReset: https://hittad.se/reset?t=a&b=1');
    expect(html).toContain("<p>Hi &lt;b&gt;&quot;you&quot;&lt;/b&gt;<br>line two</p>");
    expect(html).toContain('<a href="https://hittad.se/reset?t=a&amp;b=1">');
    expect(html).not.toContain("<b>");
  });
});

describe("mail log lines carry no recipient addresses", () => {
  it("replaces addresses in SMTP error messages", () => {
    expect(withoutAddresses("550 5.1.1 <anna@example.test>: Recipient address rejected")).toBe(
      "550 5.1.1 <[address]>: Recipient address rejected",
    );
    expect(withoutAddresses("Invalid recipient x.y+z@sub.example.se, retry")).toBe(
      "Invalid recipient [address], retry",
    );
  });
});

describe("the outbox's lease (decision 033)", () => {
  it("a row an instance claimed waits for its lease; once the lease has passed (the instance died) another sends it", async () => {
    const deps = await createServiceDeps();
    const live = await enqueueSms(deps.db, { to: "+46700000001", text: "claimed by a live instance" });
    const dead = await enqueueSms(deps.db, { to: "+46700000002", text: "claimed by a killed instance" });
    const now = Date.now();
    const claimed = (id: string, lockedUntil: number) =>
      deps.db
        .updateTable("mail_outbox")
        .set({ status: "sending", attempts: 1, lockedUntil })
        .where("id", "=", id)
        .execute();
    await claimed(live, now + 60_000);
    await claimed(dead, now - 1);
    const sent: string[] = [];
    const worker = startMailWorker(deps.db, deps.config, {
      sms: { send: async (row) => void sent.push(row.to) },
    });
    try {
      await worker.drain();
      expect(sent).toEqual(["+46700000002"]);
    } finally {
      await worker.stop();
      await deps.close();
    }
  });
});
