/**
 * The account page's service (decision 017) on an in-memory SQLite through the real
 * migrations, signed in through better-auth: name and language are saved; the page shows
 * the password sign-in and this session; an email change to the same address is refused;
 * deleting the account asks for the password and is refused to the last admin of an
 * organisation with members. One sign-up, one sign-in (password hashing is slow).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  createTestOrganisation,
  joinOrganisation,
  signUpOwner,
  type TestOwner,
} from "../../../tests/support/service-fixtures";
import {
  AccountPageError,
  deleteAccount,
  getAccountPage,
  requestEmailChange,
  updateProfile,
} from "./account.service.server";

vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let user: TestOwner;
let headers: Headers;
beforeAll(async () => {
  deps = await createServiceDeps();
  user = await signUpOwner(deps, { prefix: "account", address: false });
  const res = await deps.auth.api.signInEmail({
    body: { email: user.email, password: "pw-Secret-123!" },
    returnHeaders: true,
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  headers = new Headers({ cookie });
});
afterAll(async () => {
  await deps?.close();
});

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AccountPageError);
  return (err as AccountPageError).code;
}

describe("account service", () => {
  it("a signed-out request gets signedOut", async () => {
    expect(await code(getAccountPage(deps, new Headers()))).toBe("signedOut");
  });

  it("the page shows the user, the password sign-in and this session", async () => {
    const page = await getAccountPage(deps, headers);
    expect(page).toMatchObject({ email: user.email, emailVerified: true, hasPassword: true });
    expect(page.methods.map((m) => m.provider)).toEqual(["credential"]);
    expect(page.sessions.filter((s) => s.current)).toHaveLength(1);
  });

  it("name and language are saved", async () => {
    await updateProfile(deps, headers, { name: "Anna Andersson", language: "sv" });
    const row = await deps.db
      .selectFrom("user")
      .select(["name", "language"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Anna Andersson", language: "sv" });
    expect(await getAccountPage(deps, headers)).toMatchObject({ name: "Anna Andersson", language: "sv" });
  });

  it("an email change to the address the account has is refused", async () => {
    expect(await code(requestEmailChange(deps, headers, { email: ` ${user.email.toUpperCase()} ` }))).toBe("sameEmail");
  });

  it("deleting the account asks for the password", async () => {
    expect(await code(deleteAccount(deps, headers, {}))).toBe("passwordRequired");
    expect(await code(deleteAccount(deps, headers, { password: "not-the-password" }))).toBe("wrongPassword");
    expect(await deps.db.selectFrom("user").select("id").where("id", "=", user.id).execute()).toHaveLength(1);
  });

  it("the last admin of an organisation with members cannot delete the account", async () => {
    const org = await createTestOrganisation(deps, user, { dpa: false });
    const member = await signUpOwner(deps, { prefix: "account-member", address: false });
    await joinOrganisation(deps, org, member, "member");
    expect(await code(deleteAccount(deps, headers, { password: "pw-Secret-123!" }))).toBe("lastOrganisationAdmin");
    expect(await deps.db.selectFrom("user").select("id").where("id", "=", user.id).execute()).toHaveLength(1);
  });
});
