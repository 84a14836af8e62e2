import { describe, expect, it } from "vitest";
import { suggestFee } from "../domain/fee";
import { parseProductForm, suggestFeeFromForm } from "./product-form";

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const valid = { name: " Phone ", findFee: "250", prodType: "mobile", contactInfo: "070\n123", payment: "month" };

describe("product form schema", () => {
  it("accepts a complete form, trims text and turns the fee into a whole number", () => {
    const r = parseProductForm(form({ ...valid, intent: "payNow" }));
    expect(r).toEqual({
      ok: true,
      data: {
        name: "Phone",
        findFee: 250,
        approxValue: null,
        prodType: "mobile",
        contactInfo: "070\n123",
        contactVisibility: "public",
        payment: "month",
        intent: "payNow",
        scanAlerts: false,
      },
    });
  });

  it("scanAlerts is on only when its checkbox is ticked (a missing field is off)", () => {
    const on = parseProductForm(form({ ...valid, scanAlerts: "on" }));
    expect(on.ok && on.data.scanAlerts).toBe(true);
    const off = parseProductForm(form(valid));
    expect(off.ok && off.data.scanAlerts).toBe(false);
  });

  it("contact visibility: public when not chosen (the spec's page), private when chosen, anything else refused", () => {
    expect(parseProductForm(form(valid))).toMatchObject({ ok: true, data: { contactVisibility: "public" } });
    const priv = parseProductForm(form({ ...valid, contactVisibility: "private" }));
    expect(priv).toMatchObject({ ok: true, data: { contactVisibility: "private" } });
    const bad = parseProductForm(form({ ...valid, contactVisibility: "everyone" }));
    expect(bad).toMatchObject({ ok: false, errors: { contactVisibility: "relay.errors.visibilityInvalid" } });
  });

  it("defaults payment to year and the button to save-later; ignores package/payNow fields", () => {
    const r = parseProductForm(form({ ...valid, payment: "weekly", package: "tripple", payNow: "true" }));
    expect(r.ok && r.data).toMatchObject({ payment: "year", intent: "payLater" });
    expect(r.ok && Object.keys(r.data)).not.toContain("package");
  });

  it("requires name, fee, type and contact info, with one message key per field and the input kept", () => {
    const r = parseProductForm(form({ name: " ", findFee: "", prodType: "", contactInfo: "" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      name: "items.form.errors.nameRequired",
      findFee: "items.form.errors.findFeeRequired",
      prodType: "items.form.errors.prodTypeRequired",
      contactInfo: "items.form.errors.contactInfoRequired",
    });
    expect(r.values.name).toBe(" ");
  });

  it("bounds: name ≤ 80, contact info ≤ 500, fee a whole number from 0 to 100000", () => {
    const err = (over: Record<string, string>) => {
      const r = parseProductForm(form({ ...valid, ...over }));
      return r.ok ? null : r.errors;
    };
    expect(err({ name: "x".repeat(80) })).toBeNull();
    expect(err({ name: "x".repeat(81) })).toEqual({ name: "items.form.errors.nameTooLong" });
    expect(err({ contactInfo: "x".repeat(500) })).toBeNull();
    expect(err({ contactInfo: "x".repeat(501) })).toEqual({ contactInfo: "items.form.errors.contactInfoTooLong" });
    expect(err({ findFee: "0" })).toBeNull();
    expect(err({ findFee: "100000" })).toBeNull();
    expect(err({ findFee: "100001" })).toEqual({ findFee: "items.form.errors.findFeeTooHigh" });
    for (const bad of ["-1", "1.5", "1e3", "abc", "0x10"]) {
      expect(err({ findFee: bad }), bad).toEqual({ findFee: "items.form.errors.findFeeWhole" });
    }
    expect(err({ prodType: "car" })).toEqual({ prodType: "items.form.errors.prodTypeRequired" });
  });
});

describe("hittelön: the suggested fee (issue #21)", () => {
  it("is about 10 % of the value, rounded to whole units, then to 5, from 200 to 10", () => {
    expect(suggestFee(0)).toBe(0);
    expect(suggestFee(95)).toBe(10);
    expect(suggestFee(149)).toBe(15);
    expect(suggestFee(1_240)).toBe(125);
    expect(suggestFee(1_260)).toBe(125);
    expect(suggestFee(1_280)).toBe(130);
    expect(suggestFee(8_000)).toBe(800);
    expect(suggestFee(12_345)).toBe(1_230);
  });

  it("never exceeds the largest fee the form accepts", () => {
    expect(suggestFee(1_000_000)).toBe(100_000);
    expect(suggestFee(5_000_000)).toBe(100_000);
  });

  it("the approximate value is optional, a whole number up to 1,000,000", () => {
    expect(parseProductForm(form({ ...valid, approxValue: " 8000 " }))).toMatchObject({
      ok: true,
      data: { approxValue: 8000 },
    });
    expect(parseProductForm(form({ ...valid, approxValue: "12.5" }))).toMatchObject({
      ok: false,
      errors: { approxValue: "items.form.errors.approxValueWhole" },
    });
    expect(parseProductForm(form({ ...valid, approxValue: "1000001" }))).toMatchObject({
      ok: false,
      errors: { approxValue: "items.form.errors.approxValueTooHigh" },
    });
  });

  it("'Suggest fee' fills in the fee from the value and keeps everything else as typed", () => {
    const r = suggestFeeFromForm(form({ ...valid, findFee: "5", approxValue: "3000", intent: "suggest" }));
    expect(r).toEqual({
      values: expect.objectContaining({ name: " Phone ", findFee: "300", approxValue: "3000" }),
      errors: {},
    });
    expect(suggestFeeFromForm(form({ ...valid, approxValue: "" })).errors).toEqual({
      approxValue: "items.form.errors.approxValueRequired",
    });
    expect(suggestFeeFromForm(form({ ...valid, approxValue: "abc" })).values.findFee).toBe("250");
  });
});
