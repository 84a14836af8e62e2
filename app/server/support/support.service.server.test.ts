import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { createAltchaChallenge } from "../captcha/captcha.server";
import { contactErrors } from "./support.http.server";
import {
  ContactError,
  inboxPage,
  markHandled,
  openMessage,
  replyToMessage,
  submitContactMessage,
} from "./support.service.server";

let deps: ServiceTestDeps;
beforeEach(async () => {
  // The ALTCHA library checks expiry against the real time: start the clock now.
  deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" }, Date.now());
});
afterEach(() => deps.close());

async function token(): Promise<string> {
  const challenge = await createAltchaChallenge(deps.config, deps.clock());
  const solution = await solveChallenge({ challenge, deriveKey });
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

const input = (captchaToken: string) => ({ name: "Fia", email: "fia@example.test", message: "Hej", captchaToken });
const meta = { ip: "203.0.113.9", lang: "sv" as const, userId: null };

async function codeOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ContactError);
    return { code: (err as ContactError).code, params: (err as ContactError).params };
  }
  throw new Error("expected a ContactError");
}

describe("contact service", () => {
  it("a message without a captcha solution is refused; reCAPTCHA gets its own wording", async () => {
    expect(await codeOf(submitContactMessage(deps, input(""), meta))).toEqual({ code: "captcha.missing", params: {} });
    const recaptcha = { ...deps, config: { ...deps.config, captcha: "recaptcha" as const } };
    expect((await codeOf(submitContactMessage(recaptcha, input(""), meta))).code).toBe("captcha.missingRecaptcha");
    expect(contactErrors["captcha.missingRecaptcha"].key).toBe("contact.errors.captchaRequiredRecaptcha");
  });

  it("stores a message at the clock's time and it shows unread in the inbox", async () => {
    const { id } = await submitContactMessage(deps, input(await token()), meta);
    const inbox = await inboxPage(deps, 1);
    expect(inbox).toMatchObject({ total: 1, unread: 1 });
    expect(inbox.messages[0]).toMatchObject({ id, createdAt: deps.clock(), unread: true, handled: false });
  });

  // The limit is the point here, not the proof of work: an in-process captcha that passes
  // every token (decision 060's Deps port) instead of six solutions (~4 s of CPU).
  it("the sixth message from one address within 15 minutes is refused with the minutes to wait (429)", async () => {
    const passing = { ...deps, captcha: { verify: async () => ({ ok: true as const }) } };
    for (let i = 0; i < 5; i++) await submitContactMessage(passing, input("solved"), meta);
    const refused = await codeOf(submitContactMessage(passing, input("solved"), meta));
    expect(refused).toEqual({ code: "rateLimited", params: { count: 15 } });
    expect(contactErrors.rateLimited.status).toBe(429);
    expect(contactErrors.rateLimited.headers?.(refused.params)).toEqual({ "Retry-After": "900" });
  });

  it("opening marks read at the clock's time; a reply is recorded and handles the message", async () => {
    const { id } = await submitContactMessage(deps, input(await token()), meta);
    deps.setNow(deps.clock() + 60_000);
    const opened = await openMessage(deps, id);
    expect(opened.readAt).toBe(deps.clock());
    await replyToMessage(deps, id, "  Tack!  ", { email: "staff@hittad.se" });
    const after = await openMessage(deps, id);
    expect(after.replies).toMatchObject([{ text: "Tack!", authorEmail: "staff@hittad.se" }]);
    expect(after.handledAt).toBe(deps.clock());
    await markHandled(deps, id, false, "staff@hittad.se");
    expect((await openMessage(deps, id)).handledAt).toBeNull();
  });

  it("an empty or too long reply and an unknown message are refused", async () => {
    const { id } = await submitContactMessage(deps, input(await token()), meta);
    expect((await codeOf(replyToMessage(deps, id, "   ", { email: "s@h.se" }))).code).toBe("replyEmpty");
    expect((await codeOf(replyToMessage(deps, id, "x".repeat(10_001), { email: "s@h.se" }))).code).toBe("replyTooLong");
    expect((await codeOf(openMessage(deps, "nope"))).code).toBe("notFound");
    expect((await codeOf(markHandled(deps, "nope", true, "s@h.se"))).code).toBe("notFound");
    expect(contactErrors.notFound.status).toBe(404);
  });
});
