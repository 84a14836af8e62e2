/** Decision 055: with SMS_NUMBER the sticker says where to text the code, in the owner's language; without it nothing changes. */
import "~/i18n/resources.server";
import { describe, expect, it } from "vitest";
import { pdfToText } from "../../../tests/support/pdf";
import { stickerSheetPdf } from "./sticker-pdf.server";

const cells = [
  { id: "AbCdEfGhJk", code: "K7M29QXHR", lang: "en" as const },
  { id: "AbCdEfGhJm", code: "K7M29QXHS", lang: "sv" as const },
];

describe("the sticker sheet names Hittad's SMS number (decision 055)", () => {
  it("prints 'or text the code to 0766-86 10 00' / 'eller sms:a koden till …' under the code when SMS_NUMBER is set", async () => {
    const text = pdfToText(await stickerSheetPdf(new URL("https://hittad.se"), cells, "+46766861000"));
    expect(text).toContain("or text the code to 0766-86 10 00");
    expect(text).toContain("eller sms:a koden till 0766-86 10 00");
  });

  it("prints no number without SMS_NUMBER", async () => {
    const text = pdfToText(await stickerSheetPdf(new URL("https://hittad.se"), cells));
    expect(text).not.toContain("0766");
    expect(text).not.toMatch(/text the code|sms:a koden/);
  });
});
