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
      data: { items: ["AAAAAAAAAA", "BBBBBBBBBB"], payment: "month", scope: "selected" },
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
    ).toEqual({ ok: true, intent: "pay", data: { items: [], payment: "year", scope: "allUnpaid" } });
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
});
