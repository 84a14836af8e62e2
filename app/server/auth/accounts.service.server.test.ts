import { afterEach, beforeEach, describe, expect, it } from "vitest";
// Mails are written in the user's language: the server registers translations at start.
import "~/i18n/resources.server";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { grantAdmin } from "../admin/admin.repository.server";
import {
  AccountError,
  isAdminUser,
  registerWithPassword,
  requestPasswordReset,
  resetPassword,
  signInWithPassword,
  signOut,
  startSocialSignIn,
} from "./accounts.service.server";

let deps: ServiceTestDeps;
let n = 0;
const email = () => `svc-${++n}@example.test`;
const IP = "203.0.113.7";

async function register(address = email(), password = "a fine long secret") {
  await registerWithPassword(deps, { name: "Sam Service", email: address, password, language: "en", ip: IP });
  return { email: address, password };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AccountError);
  return (err as AccountError).code;
}

async function resetTokenFor(address: string): Promise<string> {
  const mails = await deps.db.selectFrom("mail_outbox").select(["to", "text"]).where("to", "=", address).execute();
  const last = mails.at(-1)!;
  return /token=([\w-]+)/.exec(last.text)![1]!;
}

// Real scrypt hashing (better-auth's, deliberately slow): a dozen sign-ups take seconds on a
// busy 2-core machine, so these get more than the default 5 s.
describe("accounts service", { timeout: 30_000 }, () => {
  beforeEach(async () => {
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
  });
  afterEach(() => deps.close());

  it("registration signs in: it answers the session cookie", async () => {
    const res = await registerWithPassword(deps, {
      name: " Nora ",
      email: "  Nora@Example.TEST ",
      password: "correct horse battery",
      language: "sv",
      ip: IP,
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("hittad.session_token="))).toBe(true);
    // (Migration 0009 adds the placeholder user of anonymised orders: pick Nora's row.)
    const user = await deps.db
      .selectFrom("user")
      .selectAll()
      .where("id", "!=", "deleted-user")
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: "Nora", email: "nora@example.test", language: "sv" });
  });

  it("registration refuses a taken email, a short and a common password with their codes", async () => {
    const u = await register();
    expect(await codeOf(register(u.email))).toBe("emailTaken");
    expect(await codeOf(register(email(), "short1"))).toBe("password.tooShort");
    expect(await codeOf(register(email(), "Password123"))).toBe("password.common");
  });

  it("sign-in: a wrong password and an unknown email are the same error", async () => {
    const u = await register();
    const ok = await signInWithPassword(deps, {
      email: u.email.toUpperCase(),
      password: u.password,
      rememberMe: false,
      ip: IP,
    });
    expect(ok.headers.getSetCookie().length).toBeGreaterThan(0);
    expect(
      await codeOf(signInWithPassword(deps, { email: u.email, password: "nope nope", rememberMe: false, ip: IP })),
    ).toBe("invalidCredentials");
    expect(
      await codeOf(signInWithPassword(deps, { email: email(), password: "nope nope", rememberMe: false, ip: IP })),
    ).toBe("invalidCredentials");
  });

  it("a password session keeps the browser's User-Agent, so /account can name the device", async () => {
    const IPHONE =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    const LINUX =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    const address = email();
    await registerWithPassword(deps, {
      name: "Ua User",
      email: address,
      password: "a fine long secret",
      language: "en",
      ip: IP,
      userAgent: IPHONE,
    });
    await signInWithPassword(deps, {
      email: address,
      password: "a fine long secret",
      rememberMe: false,
      ip: IP,
      userAgent: LINUX,
    });
    const agents = await deps.db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.userId")
      .select("session.userAgent")
      .where("user.email", "=", address)
      .execute();
    expect(agents.map((a) => a.userAgent).sort()).toEqual([IPHONE, LINUX].sort());
  });

  it("sign-ups are limited per IP address, with the minutes to wait", async () => {
    for (let i = 0; i < 10; i++) await register();
    const err = await register().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountError);
    expect((err as AccountError).code).toBe("rateLimited");
    expect((err as AccountError).params.count).toBe(60);
  });

  it("a reset link sets a new password once; a weak one is refused first", async () => {
    const u = await register();
    await requestPasswordReset(deps, { email: u.email, ip: IP });
    const token = await resetTokenFor(u.email);
    expect(await codeOf(resetPassword(deps, { token, password: "12345678" }))).toBe("password.common");
    await resetPassword(deps, { token, password: "a brand new secret" });
    expect(await codeOf(resetPassword(deps, { token, password: "yet another secret" }))).toBe("invalidResetLink");
    await signInWithPassword(deps, { email: u.email, password: "a brand new secret", rememberMe: false, ip: IP });
  });

  it("reset requests answer alike for unknown emails and are limited per account", async () => {
    const ghost = email();
    for (let i = 0; i < 3; i++) await requestPasswordReset(deps, { email: ghost, ip: IP });
    expect(await codeOf(requestPasswordReset(deps, { email: ghost, ip: IP }))).toBe("rateLimited");
  });

  it("sign-out without a session ends nothing and only expires the cookies", async () => {
    const cookies = (await signOut(deps, new Headers())).getSetCookie();
    expect(cookies.every((c) => /Max-Age=0/.test(c))).toBe(true);
  });

  it("a social sign-in with another provider name is unsupported; an unconfigured one is not available", async () => {
    const headers = new Headers();
    expect(await codeOf(startSocialSignIn(deps, { provider: "myspace", from: "login", requestHeaders: headers }))).toBe(
      "unsupportedProvider",
    );
    expect(await codeOf(startSocialSignIn(deps, { provider: "google", from: "login", requestHeaders: headers }))).toBe(
      "providerNotConfigured",
    );
  });

  it("reset: using one link deletes every other reset link of that user", async () => {
    const u = await register();
    for (let i = 0; i < 3; i++) await requestPasswordReset(deps, { email: u.email, ip: `198.51.100.${i}` });
    const mails = await deps.db.selectFrom("mail_outbox").select("text").where("to", "=", u.email).execute();
    const tokens = mails.map((m) => /resetpassword\/new\?token=([\w-]+)/.exec(m.text)?.[1]).filter(Boolean) as string[];
    expect(tokens).toHaveLength(3);
    await resetPassword(deps, { token: tokens[0]!, password: "the first new secret" });
    for (const t of tokens.slice(1)) {
      expect(await codeOf(resetPassword(deps, { token: t, password: "a later new secret" }))).toBe("invalidResetLink");
    }
  });
});

describe("sign-in lockout (failures only, per account and IP)", { timeout: 30_000 }, () => {
  beforeEach(async () => {
    deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
  });
  afterEach(() => deps.close());

  const attempt = (u: { email: string; password: string }, ip: string, password = u.password, captcha?: string) =>
    signInWithPassword(deps, { email: u.email, password, rememberMe: false, ip, captcha });

  it("eight wrong passwords from elsewhere do not stop the owner's correct password", async () => {
    const u = await register();
    for (let i = 0; i < 8; i++)
      expect(await codeOf(attempt(u, "192.0.2.66", "wrong password"))).toBe("invalidCredentials");
    expect(await codeOf(attempt(u, "192.0.2.66"))).toBe("captchaRequired");
    await attempt(u, IP);
  });

  it("successful sign-ins are not counted", async () => {
    // Read the counters instead of signing in past both limits (31 scrypt checks took
    // over 30 s on a busy machine): one failure counts once on each; successes add nothing
    // and clear the account-and-address counter.
    const u = await register();
    expect(await codeOf(attempt(u, IP, "wrong password"))).toBe("invalidCredentials");
    for (let i = 0; i < 3; i++) await attempt(u, IP);
    const counters = await deps.db
      .selectFrom("app_rate_limits")
      .select(["key", "count"])
      .where("key", "like", "signin:%")
      .orderBy("key")
      .execute();
    expect(counters.map((c) => [c.key, Number(c.count)])).toEqual([[`signin:ip:${IP}`, 1]]);
  });

  it("past the lock a forged captcha is refused and checks no password: its per-IP count is given back", async () => {
    const u = await register();
    for (let i = 0; i < 8; i++) await codeOf(attempt(u, "192.0.2.67", "wrong password"));
    expect(await codeOf(attempt(u, "192.0.2.67", u.password, "forged"))).toBe("captchaFailed");
    expect(await codeOf(attempt(u, "192.0.2.67"))).toBe("captchaRequired");
    const counters = await deps.db
      .selectFrom("app_rate_limits")
      .select(["key", "count"])
      .where("key", "like", "signin:%")
      .orderBy("key")
      .execute();
    // The lock stays at limit + 1 (refused, not counted further); the IP keeps its 8 failures.
    expect(counters.map((c) => [c.key, Number(c.count)])).toEqual([
      [`signin:account-ip:${u.email}|192.0.2.67`, 9],
      ["signin:ip:192.0.2.67", 8],
    ]);
  });

  it("attempts sent at once are counted before any password is checked: no more than eight are checked", async () => {
    // Decision 029: the counters were read before the check and written after it, so
    // concurrent attempts all read "allowed" and every password was tried.
    const u = await register();
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => codeOf(attempt(u, "192.0.2.68", `wrong password ${i}`))),
    );
    expect(codes.filter((c) => c === "invalidCredentials")).toHaveLength(8);
    expect(codes.filter((c) => c === "captchaRequired")).toHaveLength(12);
    // The right password among concurrent wrong ones gets no extra tries either.
    expect(await codeOf(attempt(u, "192.0.2.68"))).toBe("captchaRequired");
  });

  it("one IP failing on many accounts hits the per-IP limit", async () => {
    for (let i = 0; i < 30; i++) {
      expect(await codeOf(attempt({ email: email(), password: "x" }, "192.0.2.99", "wrong password"))).toBe(
        "invalidCredentials",
      );
    }
    expect(await codeOf(attempt({ email: email(), password: "x" }, "192.0.2.99", "wrong password"))).toBe(
      "rateLimited",
    );
  }, 30_000);
});

describe("admin rights", () => {
  beforeEach(async () => {
    deps = await createServiceDeps({ ADMIN_EMAILS: "boss@example.test" });
  });
  afterEach(() => deps.close());

  async function userRow(address: string) {
    const u = await deps.db
      .selectFrom("user")
      .select(["id", "email"])
      .where("email", "=", address)
      .executeTakeFirstOrThrow();
    return { id: u.id, email: u.email };
  }

  it("an unverified holder of an ADMIN_EMAILS or granted address is no admin", async () => {
    await grantAdmin(deps.db, "granted@example.test");
    for (const address of ["boss@example.test", "granted@example.test"]) {
      await register(address);
      expect(await isAdminUser(deps, { ...(await userRow(address)), emailVerified: false })).toBe(false);
    }
    // Nothing was bound to them.
    const bound = await deps.db.selectFrom("admin_grants").select("userId").where("userId", "is not", null).execute();
    expect(bound).toEqual([]);
  });

  it("the first verified sign-in binds the grant to the user: a later holder of the email gets nothing", async () => {
    await grantAdmin(deps.db, "granted@example.test");
    for (const address of ["boss@example.test", "granted@example.test"]) {
      await register(address);
      const first = await userRow(address);
      expect(await isAdminUser(deps, { ...first, emailVerified: true })).toBe(true);
      // The account's email changes; someone else takes and verifies the address.
      await deps.db
        .updateTable("user")
        .set({ email: `moved-${address}` })
        .where("id", "=", first.id)
        .execute();
      await register(address);
      const second = await userRow(address);
      expect(await isAdminUser(deps, { ...second, emailVerified: true })).toBe(false);
      expect(await isAdminUser(deps, { id: first.id, email: `moved-${address}`, emailVerified: true })).toBe(true);
    }
  });

  it("side-by-side first requests of a verified admin (root and page loaders) both get the rights", async () => {
    await grantAdmin(deps.db, "granted@example.test");
    for (const address of ["boss@example.test", "granted@example.test"]) {
      await register(address);
      const u = { ...(await userRow(address)), emailVerified: true };
      expect(await Promise.all([isAdminUser(deps, u), isAdminUser(deps, u), isAdminUser(deps, u)])).toEqual([
        true,
        true,
        true,
      ]);
    }
  });

  it("an ADMIN_EMAILS grant ends when the setting no longer lists the email", async () => {
    await register("boss@example.test");
    const boss = await userRow("boss@example.test");
    expect(await isAdminUser(deps, { ...boss, emailVerified: true })).toBe(true);
    const later = { ...deps, config: { ...deps.config, adminEmails: [] } };
    expect(await isAdminUser(later, { ...boss, emailVerified: true })).toBe(false);
  });
});
