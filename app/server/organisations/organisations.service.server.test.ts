/**
 * Organisations (decisions 012, 022; the data processing agreement) on an
 * in-memory SQLite through the real migrations: invites need the agreement accepted and a
 * verified inviter, one open invite per address, an invite is accepted once by the invited
 * verified address, outsiders learn nothing and members cannot administer, the last admin
 * cannot leave or step down. Two sign-ups for the whole file (password hashing is slow).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DPA_VERSION } from "~/lib/domain/dpa";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  createTestOrganisation,
  joinOrganisation,
  signUpOwner,
  type TestOwner,
} from "../../../tests/support/service-fixtures";
import {
  acceptDpa,
  acceptInvite,
  changeRole,
  inviteMember,
  leaveOrganisation,
  OrganisationError,
  updateOrganisation,
} from "./organisations.service.server";

vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let admin: TestOwner;
let other: TestOwner;
beforeAll(async () => {
  deps = await createServiceDeps();
  admin = await signUpOwner(deps, { prefix: "org-admin", address: false });
  other = await signUpOwner(deps, { prefix: "org-other", address: false });
});
afterAll(async () => {
  await deps?.close();
});

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OrganisationError);
  return (err as OrganisationError).code;
}

const invite = (org: string, email: string, actor: { id: string; name: string; emailVerified: boolean } = admin) =>
  inviteMember(deps, actor, org, { email, role: "member" }, "en");

/** The invite link's token, from the mail in the outbox. */
async function tokenMailedTo(email: string): Promise<string> {
  const mail = await deps.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to", "=", email)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
}

const roleOf = async (org: string, userId: string) =>
  (
    await deps.db
      .selectFrom("organisation_members")
      .select("role")
      .where("organisationId", "=", org)
      .where("userId", "=", userId)
      .executeTakeFirst()
  )?.role;

describe("organisations service", () => {
  it("invites need the data processing agreement accepted first", async () => {
    const org = await createTestOrganisation(deps, admin, { dpa: false });
    expect(await code(invite(org, "new-1@example.test"))).toBe("dpaRequired");
    expect(await code(acceptDpa(deps, admin, org, DPA_VERSION - 1))).toBe("dpaOutdated");
    await acceptDpa(deps, admin, org, DPA_VERSION);
    await invite(org, "new-1@example.test");
    expect(await tokenMailedTo("new-1@example.test")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('the invite mail names the role as a sentence does: "as a member" (decision 057)', async () => {
    const org = await createTestOrganisation(deps, admin);
    await invite(org, "new-role@example.test");
    const mail = await deps.db
      .selectFrom("mail_outbox")
      .select("text")
      .where("to", "=", "new-role@example.test")
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain("to join it as a member.");
  });

  it("only a verified admin sends invites", async () => {
    const org = await createTestOrganisation(deps, admin);
    expect(await code(invite(org, "new-2@example.test", { ...admin, emailVerified: false }))).toBe(
      "inviterNotVerified",
    );
  });

  it("one open invite per address; a member is not invited again", async () => {
    const org = await createTestOrganisation(deps, admin);
    await invite(org, "new-3@example.test");
    expect(await code(invite(org, "new-3@example.test"))).toBe("alreadyInvited");
    const mails = await deps.db.selectFrom("mail_outbox").select("id").where("to", "=", "new-3@example.test").execute();
    expect(mails).toHaveLength(1);
    await joinOrganisation(deps, org, other, "member");
    expect(await code(invite(org, other.email))).toBe("alreadyMember");
  });

  it("an invite is accepted once, by a verified user with the invited address", async () => {
    const org = await createTestOrganisation(deps, admin);
    await invite(org, other.email);
    const token = await tokenMailedTo(other.email);
    expect(await code(acceptInvite(deps, { ...other, emailVerified: false }, token))).toBe("emailNotVerified");
    expect(await code(acceptInvite(deps, admin, token))).toBe("wrongEmail");
    expect(await acceptInvite(deps, other, token)).toBe(org);
    expect(await roleOf(org, other.id)).toBe("member");
    expect(await code(acceptInvite(deps, other, token))).toBe("inviteUsed");
  });

  it("an expired invite cannot be accepted", async () => {
    const org = await createTestOrganisation(deps, admin);
    // A minute after the earlier test's invite to the same address: the outbox is stamped by
    // the test's clock, and the newest mail must be this invite's.
    const start = deps.clock();
    deps.setNow(start + 60_000);
    try {
      await invite(org, other.email);
      const token = await tokenMailedTo(other.email);
      deps.setNow(start + 60_000 + 8 * 24 * 60 * 60_000);
      expect(await code(acceptInvite(deps, other, token))).toBe("inviteExpired");
    } finally {
      deps.setNow(start);
    }
  });

  it("outsiders learn nothing of an organisation; members cannot administer it", async () => {
    const org = await createTestOrganisation(deps, admin);
    expect(await code(invite(org, "new-4@example.test", other))).toBe("notFound");
    await joinOrganisation(deps, org, other, "member");
    expect(await code(invite(org, "new-4@example.test", other))).toBe("forbidden");
    expect(await code(changeRole(deps, other.id, org, other.id, "admin"))).toBe("forbidden");
  });

  it("the last admin cannot leave or step down; with a second admin they can", async () => {
    const org = await createTestOrganisation(deps, admin);
    expect(await code(leaveOrganisation(deps, admin.id, org))).toBe("lastAdmin");
    expect(await code(changeRole(deps, admin.id, org, admin.id, "member"))).toBe("lastAdmin");
    await joinOrganisation(deps, org, other, "admin");
    await leaveOrganisation(deps, admin.id, org);
    expect(await roleOf(org, admin.id)).toBeUndefined();
    expect(await code(updateOrganisation(deps, admin.id, org, {} as never))).toBe("notFound");
  });
});
