/**
 * Fixtures for service tests (decision 011) on createServiceDeps: a signed-up user (one
 * password hash each, so tests reuse one where the rule allows), verified or not, with the
 * order address kept; an organisation with its billing email confirmed and the data
 * processing agreement accepted, as an admin who may invoice and invite finds it.
 */
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { DPA_VERSION } from "../../app/lib/domain/dpa";
import { acceptDpa } from "../../app/server/organisations/organisations.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";
import { claimSticker, createBatch, getBatch } from "../../app/server/stickers/stickers.service.server";
import { addMonths } from "../../app/lib/domain/pricing";
import type { ProductInput } from "../../app/lib/forms/product-form";
import type { Deps } from "../../app/server/service-deps.server";
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
  deps: Deps,
  admin: Pick<TestOwner, "id" | "name" | "email">,
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
  deps: Deps,
  organisationId: string,
  user: Pick<TestOwner, "id">,
  role: "admin" | "member",
): Promise<void> {
  await insertMember(deps.db, { organisationId, userId: user.id, role, createdAt: deps.clock() });
}

/**
 * A year's payment for the item, kept (a paid order, never withdrawn): what earns an item
 * the lapsed relay once it is not paid any more (decision 050). For tests that make the
 * lapse itself by setting the item's own paid state.
 */
export async function insertKeptPayment(db: Deps["db"], userId: string, itemId: string, paidAt: number) {
  const id = `kept-${itemId}`;
  await db
    .insertInto("orders")
    .values({
      id,
      userId,
      status: "paid",
      provider: "test",
      period: "year",
      lang: "en",
      currency: "SEK",
      count: 1,
      unitAmount: 300,
      packageAmount: 300,
      discountAmount: 0,
      totalAmount: 300,
      adress: "{}",
      paidAt,
      paidUntil: paidAt + 365 * 24 * 60 * 60_000,
      createdAt: paidAt,
      updatedAt: paidAt,
    })
    .execute();
  await db.insertInto("order_items").values({ orderId: id, productId: itemId }).execute();
}

/** The item the sticker tests register: a public "Red bike" with a 100 kr hittelön. */
export const RED_BIKE: ProductInput = {
  contactVisibility: "public",
  name: "Red bike",
  findFee: 100,
  prodType: "other",
  contactInfo: "Call 070-123",
  payment: "year",
  intent: "payLater",
};

/**
 * A sticker of a one-sticker batch prepaid for `months` (null: not prepaid; the batch made
 * by a staff user of its own), claimed by `ownerId` as the red bike (decision 036). Returns
 * the item's id and, for a prepaid sticker, the end of its months from the clock's now.
 */
export async function claimPackSticker(
  deps: ServiceTestDeps,
  ownerId: string,
  months?: 6 | 12,
): Promise<{ id: string; until: number }>;
export async function claimPackSticker(
  deps: ServiceTestDeps,
  ownerId: string,
  months: null,
): Promise<{ id: string; until: null }>;
export async function claimPackSticker(
  deps: ServiceTestDeps,
  ownerId: string,
  months: 6 | 12 | null = 6,
): Promise<{ id: string; until: number | null }> {
  const staff = await signUpOwner(deps, { verified: false, address: false, prefix: "pack-staff" });
  const batch = await getBatch(
    deps,
    await createBatch(deps, staff.id, { size: 1, prepaidMonths: months, label: "Pack" }),
  );
  const id = batch.stickers[0]!.id;
  await claimSticker(deps, { userId: ownerId, ip: "10.0.0.1" }, { id }, RED_BIKE, "en");
  return { id, until: months === null ? null : addMonths(deps.clock(), months) };
}

/** The sticker-claim rate-limit counters that a try has spent (count above 0). */
export async function spentClaimTries(deps: ServiceTestDeps) {
  const rows = await deps.db
    .selectFrom("app_rate_limits")
    .select(["key", "count"])
    .where("key", "like", "sticker-claim%")
    .execute();
  return rows.filter((r) => r.count > 0);
}
