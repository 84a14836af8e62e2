import { describe, expect, it } from "vitest";
import { parseProductForm } from "./product-form";

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
        prodType: "mobile",
        contactInfo: "070\n123",
        payment: "month",
        intent: "payNow",
      },
    });
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
