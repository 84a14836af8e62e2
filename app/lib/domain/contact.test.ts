import { describe, expect, it } from "vitest";
import { contactSchema, fieldErrors, MESSAGE_MAX, parseContact } from "./contact";

describe("contact form rules", () => {
  it("name is optional; email and message are required", () => {
    const r = contactSchema.safeParse({ email: "", message: " " });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({
      email: "contact.errors.emailRequired",
      message: "contact.errors.messageRequired",
    });
    const ok = contactSchema.parse({ email: " a@b.se ", message: " Hej " });
    expect(ok).toEqual({ name: "", email: "a@b.se", message: "Hej", captchaToken: "" });
  });

  it("email must be an email address", () => {
    const r = contactSchema.safeParse({ email: "not-an-email", message: "x" });
    expect(fieldErrors(r.error!).email).toBe("contact.errors.emailInvalid");
  });

  it("message is at most 5000 characters", () => {
    expect(contactSchema.safeParse({ email: "a@b.se", message: "x".repeat(MESSAGE_MAX) }).success).toBe(true);
    const r = contactSchema.safeParse({ email: "a@b.se", message: "x".repeat(MESSAGE_MAX + 1) });
    expect(fieldErrors(r.error!).message).toBe("contact.errors.messageTooLong");
  });

  it("a non-string field is a validation error, not a crash", () => {
    const r = contactSchema.safeParse({ email: 42, message: ["x"], name: {} });
    expect(r.success).toBe(false);
    expect(Object.keys(fieldErrors(r.error!)).sort()).toEqual(["email", "message", "name"]);
  });
});

describe("one contact validation for the page and the API (parseContact)", () => {
  it("a form's fields and a JSON body give the same result", () => {
    const form = new FormData();
    form.set("email", "a@b.se");
    form.set("message", "Hej");
    expect(parseContact(Object.fromEntries(form))).toEqual(parseContact({ email: "a@b.se", message: "Hej" }));
  });

  it("returns the typed values and per-field keys when invalid, for any body shape", () => {
    const r = parseContact({ email: "nope", message: "x", name: "Ann" });
    expect(r).toEqual({
      ok: false,
      values: { name: "Ann", email: "nope", message: "x" },
      fieldErrors: { email: "contact.errors.emailInvalid" },
    });
    for (const body of [null, [], "text", 42]) expect(parseContact(body).ok).toBe(false);
  });
});
