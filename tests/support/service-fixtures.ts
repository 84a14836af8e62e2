/**
 * Fixtures for service tests (decision 011) on createServiceDeps: a signed-up user (one
 * password hash each, so tests reuse one where the rule allows), verified or not, with the
 * order address kept; an organisation with its billing email confirmed and the data
 * processing agreement accepted, as an admin who may invoice and invite finds it.
 */
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { DPA_VERSION } from "../../app/lib/dpa";
import { acceptDpa } from "../../app/server/organisations/organisations.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import type { ServiceTestDeps } from "./service-db";

export const ADDRESS = {
  firstname: "Anna",
  lastname: "Svensson",
  email: "anna@example.test",
  co: "",
  address: "Storgatan 1",
  address2: "",
  city: "Uppsala",
  state: "",
  zip: "753 20",
  country: "Sweden",
};

let seq = 0;

export interface TestOwner {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

/** A signed-up user; verified and with the order address kept unless told otherwise. */
export async function signUpOwner(
  deps: ServiceTestDeps,
  opts: { language?: "en" | "sv"; verified?: boolean; address?: boolean; name?: string; prefix?: string } = {},
): Promise<TestOwner> {
  const { language = "en", verified = true, address = true, name = "Anna Svensson", prefix = "owner" } = opts;
  const email = `${prefix}-${++seq}-${process.pid}@example.test`;
  const { user } = await deps.auth.api.signUpEmail({ body: { name, email, password: "pw-Secret-123!" } });
  await deps.db
    .updateTable("user")
    .set({ emailVerified: verified ? 1 : 0, language })
    .where("id", "=", user.id)
    .execute();
  if (address) await keepOrderAddress(deps, user.id, { ...ADDRESS, email }, false);
  return { id: user.id, name, email, emailVerified: verified };
}

/** An organisation `admin` created; billing email confirmed and the DPA accepted unless told otherwise. */
export async function createTestOrganisation(
  deps: ServiceTestDeps,
  admin: TestOwner,
  opts: { billingConfirmed?: boolean; dpa?: boolean; orgNumber?: string } = {},
): Promise<string> {
  const n = ++seq;
  const billingEmail = `billing-${n}@company.example`;
  const id = await createOrganisation(deps, admin.id, {
    name: `Company ${n} AB`,
    orgNumber: opts.orgNumber ?? `559${String(n).padStart(3, "0")}-${String(process.pid % 10000).padStart(4, "0")}`,
    billingEmail,
    invoiceStreet: "Storgatan 1",
    invoicePostcode: "903 26",
    invoiceCity: "Umeå",
    invoiceCountry: "SE",
    vatNumber: null,
    deskContact: "Reception",
  });
  if (opts.billingConfirmed ?? true) {
    await deps.db
      .updateTable("organisations")
      .set({ billingEmailConfirmed: billingEmail })
      .where("id", "=", id)
      .execute();
  }
  if (opts.dpa ?? true) await acceptDpa(deps, admin, id, DPA_VERSION);
  return id;
}

/** `user` joins the organisation with `role`, as an accepted invite leaves them. */
export async function joinOrganisation(
  deps: ServiceTestDeps,
  organisationId: string,
  user: TestOwner,
  role: "admin" | "member",
): Promise<void> {
  await insertMember(deps.db, { organisationId, userId: user.id, role, createdAt: deps.clock() });
}
