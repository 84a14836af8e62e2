import { describe, expect, it } from "vitest";
import { addressLines, parseOrderForm } from "./order-form";

function form(entries: Array<[string, string]>) {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("order form", () => {
  it("reads the selected items (deduplicated), the period and the intent", () => {
    const r = parseOrderForm(
      form([
        ["items", "AAAAAAAAAA"],
        ["items", "BBBBBBBBBB"],
        ["items", "AAAAAAAAAA"],
        ["payment", "month"],
      ]),
    );
    expect(r).toEqual({
      ok: true,
      intent: "pay",
      data: {
        items: ["AAAAAAAAAA", "BBBBBBBBBB"],
        payment: "month",
        scope: "selected",
        immediateStart: false,
        payWith: "card",
      },
    });
  });

  it("paying with nothing selected is refused with a clear message; recalculating is fine", () => {
    expect(parseOrderForm(form([["payment", "year"]]))).toMatchObject({
      ok: false,
      error: "orderErrors.nothingSelected",
    });
    expect(
      parseOrderForm(
        form([
          ["payment", "year"],
          ["intent", "recalc"],
        ]),
      ),
    ).toMatchObject({ ok: true, intent: "recalc", data: { items: [] } });
  });

  it("'all unpaid' needs no ticked items: the server picks them (issue #18)", () => {
    expect(
      parseOrderForm(
        form([
          ["scope", "allUnpaid"],
          ["payment", "year"],
        ]),
      ),
    ).toEqual({
      ok: true,
      intent: "pay",
      data: { items: [], payment: "year", scope: "allUnpaid", immediateStart: false, payWith: "card" },
    });
  });

  it("reads the consumer's request to start at once (decision 041): only the ticked box's value", () => {
    const ticked = parseOrderForm(
      form([
        ["payment", "year"],
        ["scope", "allUnpaid"],
        ["immediateStart", "yes"],
      ]),
    );
    expect(ticked).toMatchObject({ ok: true, data: { immediateStart: true } });
    const forged = parseOrderForm(
      form([
        ["payment", "year"],
        ["scope", "allUnpaid"],
        ["immediateStart", "true"],
      ]),
    );
    expect(forged).toMatchObject({ ok: true, data: { immediateStart: false } });
  });

  it("refuses an unknown period and ids that are not item ids", () => {
    expect(parseOrderForm(form([["items", "AAAAAAAAAA"]]))).toMatchObject({ error: "orderErrors.paymentInvalid" });
    expect(
      parseOrderForm(
        form([
          ["items", "<script>"],
          ["payment", "year"],
        ]),
      ),
    ).toMatchObject({ ok: false, error: "orderErrors.unknownItems", values: { items: [] } });
  });

  it("formats an address as label lines", () => {
    expect(
      addressLines({
        firstname: "Anna",
        lastname: "Svensson",
        email: "a@example.test",
        co: "Berg",
        address: "Storgatan 1",
        address2: "",
        city: "Uppsala",
        state: "",
        zip: "753 20",
        country: "Sweden",
      }),
    ).toEqual(["Anna Svensson", "c/o Berg", "Storgatan 1", "753 20 Uppsala", "Sweden"]);
  });

  it("writes an address the way the destination country's post reads it (issue #32 point 11)", () => {
    const base = { firstname: "A", lastname: "B", email: "", co: "", address2: "", state: "" };
    const se = { ...base, address: "Storgatan 1", zip: "753 20", city: "Uppsala", country: "SE" };
    expect(addressLines(se, { lang: "sv" })).toEqual(["A B", "Storgatan 1", "753 20 Uppsala", "Sverige"]);
    // Posted from Sweden: a domestic label has no country line.
    expect(addressLines(se, { label: true })).toEqual(["A B", "Storgatan 1", "753 20 Uppsala"]);
    const uk = { ...base, address: "10 Downing Street", zip: "SW1A 2AA", city: "London", country: "GB" };
    expect(addressLines(uk, { lang: "en" })).toEqual([
      "A B",
      "10 Downing Street",
      "LONDON",
      "SW1A 2AA",
      "United Kingdom",
    ]);
    expect(addressLines(uk, { label: true }).slice(-1)).toEqual(["UNITED KINGDOM"]);
    const us = { ...base, address: "1 Market St", zip: "94105", city: "San Francisco", state: "CA", country: "US" };
    expect(addressLines(us, { lang: "sv" })).toEqual(["A B", "1 Market St", "San Francisco, CA 94105", "USA"]);
    // An address saved as free text before the select is printed as it was written.
    expect(addressLines({ ...se, country: "Atlantis" }).slice(-1)).toEqual(["Atlantis"]);
  });
});
