import { describe, expect, it } from "vitest";
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  formatStickerCode,
  isStickerCode,
  newStickerCode,
  normalizeStickerCode,
} from "./sticker-code";

describe("typeable sticker codes", () => {
  it("have no look-alike characters (0/O, 1/I/L) and at least 40 bits", () => {
    for (const c of "0O1IL") expect(CODE_ALPHABET).not.toContain(c);
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length);
    expect(CODE_LENGTH * Math.log2(CODE_ALPHABET.length)).toBeGreaterThanOrEqual(40);
  });

  it("are drawn from the alphabet without bias from the random bytes", () => {
    // Bytes 248..255 are dropped: with them only, no character would ever be chosen.
    let calls = 0;
    const fill = (b: Uint8Array<ArrayBuffer>) => {
      calls++;
      b.fill(calls === 1 ? 250 : 31 + 2); // 33 % 31 = 2 → "4"
      return b;
    };
    expect(newStickerCode(fill)).toBe("444444444");
    for (let i = 0; i < 200; i++) expect(isStickerCode(newStickerCode())).toBe(true);
  });

  it("are read leniently: case, spaces and dashes of any kind do not matter", () => {
    expect(normalizeStickerCode(" k7m 29q-xhr ")).toBe("K7M29QXHR");
    expect(normalizeStickerCode("K7M–29Q—XHR")).toBe("K7M29QXHR");
    expect(normalizeStickerCode("k7m.29q_xhr")).toBe("K7M29QXHR");
  });

  it("refuse what cannot be a code", () => {
    for (const bad of ["", "K7M29QXH", "K7M29QXHRR", "O7M29QXHR", "K7M29QXH1", "<script>", "x".repeat(100)]) {
      expect(normalizeStickerCode(bad)).toBeNull();
    }
  });

  it("are shown in groups of three", () => {
    expect(formatStickerCode("K7M29QXHR")).toBe("K7M-29Q-XHR");
  });
});
