import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LiveText } from "./LiveText";

describe("LiveText (decision 057)", () => {
  it("puts each value in an element of its own that translators leave alone", () => {
    expect(renderToStaticMarkup(<LiveText text="Total: 1 200 kr per år" values={["1 200 kr"]} />)).toBe(
      '<span>Total: </span><span translate="no" class="live-value">1 200 kr</span><span> per år</span>',
    );
  });

  it("splits at several values in order and keeps the words between them", () => {
    expect(renderToStaticMarkup(<LiveText text="You pay €3 now, €18 in all." values={["€3", "€18"]} />)).toBe(
      '<span>You pay </span><span translate="no" class="live-value">€3</span><span> now, </span>' +
        '<span translate="no" class="live-value">€18</span><span> in all.</span>',
    );
  });

  it("a sentence without its value is still one element of its own", () => {
    expect(renderToStaticMarkup(<LiveText text="No total yet" values={["€0"]} />)).toBe("<span>No total yet</span>");
  });
});
