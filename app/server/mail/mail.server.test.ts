import { describe, expect, it } from "vitest";
import { backoffMs, textToHtml, withoutAddresses } from "./mail.server";

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
