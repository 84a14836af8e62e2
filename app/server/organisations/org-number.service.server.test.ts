/**
 * One organisation per organisation number (decision 057): a second organisation with the
 * number of another in the same invoice country is refused (orgNumberTaken), whether it is
 * created or an existing one is changed to it; the number is compared without spaces,
 * dashes and dots; the same number in another country is another company. Two forms sent at
 * once make one organisation (the lock on the number). Service test on SQLite, and on
 * PostgreSQL with SERVICE_TESTS_ON_POSTGRES=1.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { orgNumberFor, type OrganisationInput } from "~/lib/domain/organisations";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { signUpOwner, type TestOwner } from "../../../tests/support/service-fixtures";
import { uniqueOrgNumber } from "../../../tests/support/org-numbers";
import { createOrganisation, OrganisationError, updateOrganisation } from "./organisations.service.server";

vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let admin: TestOwner;
let other: TestOwner;
beforeAll(async () => {
  deps = await createServiceDeps();
  admin = await signUpOwner(deps, { prefix: "orgnr-admin", address: false });
  other = await signUpOwner(deps, { prefix: "orgnr-other", address: false });
});
afterAll(async () => {
  await deps?.close();
});

const form = (orgNumber: string, invoiceCountry = "SE"): OrganisationInput => ({
  name: "Acme AB",
  orgNumber: orgNumberFor(orgNumber, invoiceCountry)!,
  billingEmail: "billing@acme.example",
  invoiceStreet: "Storgatan 1",
  invoicePostcode: "903 26",
  invoiceCity: "Umeå",
  invoiceCountry,
  vatNumber: null,
  deskContact: "Reception",
});

async function code(p: Promise<unknown>): Promise<string | null> {
  return p.then(
    () => null,
    (e: unknown) => (e instanceof OrganisationError ? e.code : Promise.reject(e)),
  );
}

describe("one organisation per organisation number", () => {
  it("a second organisation with a Swedish number another has is refused, however it is typed", async () => {
    const n = uniqueOrgNumber();
    await createOrganisation(deps, admin.id, form(n));
    expect(await code(createOrganisation(deps, other.id, form(n)))).toBe("orgNumberTaken");
    expect(await code(createOrganisation(deps, other.id, form(n.replace("-", ""))))).toBe("orgNumberTaken");
    expect(await deps.db.selectFrom("organisations").select("id").where("orgNumber", "=", n).execute()).toHaveLength(1);
  });

  it("a foreign number is compared without spaces, dashes and dots; the same number in another country is another company", async () => {
    await createOrganisation(deps, admin.id, form("HRB 98765", "DE"));
    expect(await code(createOrganisation(deps, other.id, form("hrb98765", "DE")))).toBe("orgNumberTaken");
    expect(await code(createOrganisation(deps, other.id, form("HRB-987.65", "DE")))).toBe("orgNumberTaken");
    expect(await code(createOrganisation(deps, other.id, form("HRB 98765", "AT")))).toBeNull();
  });

  it("changing an organisation to another's number is refused; keeping its own is not", async () => {
    const mine = uniqueOrgNumber();
    const theirs = uniqueOrgNumber();
    const id = await createOrganisation(deps, admin.id, form(mine));
    await createOrganisation(deps, other.id, form(theirs));
    expect(await code(updateOrganisation(deps, admin.id, id, { ...form(mine), name: "Acme Nordic AB" }))).toBeNull();
    expect(await code(updateOrganisation(deps, admin.id, id, form(theirs)))).toBe("orgNumberTaken");
    const row = await deps.db.selectFrom("organisations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ orgNumber: mine, name: "Acme Nordic AB" });
  });

  it("organisations that shared a number before the rule keep saving their other details", async () => {
    const shared = uniqueOrgNumber();
    const first = await createOrganisation(deps, admin.id, form(shared));
    const second = await createOrganisation(deps, other.id, form(uniqueOrgNumber()));
    // Made before decision 057: the second has the first's number.
    await deps.db.updateTable("organisations").set({ orgNumber: shared }).where("id", "=", second).execute();
    expect(await code(updateOrganisation(deps, other.id, second, { ...form(shared), name: "Renamed AB" }))).toBeNull();
    expect(await code(updateOrganisation(deps, admin.id, first, { ...form(shared), name: "First AB" }))).toBeNull();
  });

  it("five forms with one number sent at once make one organisation", async () => {
    const n = uniqueOrgNumber();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => code(createOrganisation(deps, i % 2 ? admin.id : other.id, form(n)))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.filter((r) => r === "orgNumberTaken")).toHaveLength(4);
    expect(await deps.db.selectFrom("organisations").select("id").where("orgNumber", "=", n).execute()).toHaveLength(1);
  });
});
