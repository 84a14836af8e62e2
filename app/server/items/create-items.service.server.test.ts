/**
 * The Triple's three items from one form (decision 038): every block checked with the
 * product form's schema, its errors kept per block, and the items saved all or none. On
 * SQLite, and on PostgreSQL when DATABASE_URL names one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProductFormValues } from "~/lib/forms/product-form";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { getBuyItemId } from "../order-draft/order-draft.service.server";
import { createItems } from "./create-items.service.server";
import { registerItems } from "./save-flow.server";

// Sign-ups hash passwords: seconds each on a busy 2-core machine, past Vitest's 5 s.
vi.setConfig({ testTimeout: 30_000 });

const BLOCK: ProductFormValues = {
  name: "Black phone",
  findFee: "200",
  approxValue: "",
  prodType: "mobile",
  contactInfo: "Call 070-123",
  contactVisibility: "private",
  payment: "",
  scanAlerts: "",
};

let database: TestDatabase;
let deps: ServiceTestDeps;
let owner: string;

const itemsOf = (userId: string) =>
  deps.db.selectFrom("products").select(["name", "findFee", "approxValue"]).where("owner", "=", userId).execute();

beforeEach(async () => {
  database = await createTestDatabase("create_items");
  deps = await createServiceDeps({ DATABASE_URL: database.url });
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email: "triple@example.test", password: "pw-Secret-123!" },
  });
  owner = user.id;
});
afterEach(async () => {
  await deps.close();
  await database.drop();
});

describe("registering three items on one form", () => {
  it("saves all three as unpaid items of the owner", async () => {
    const result = await createItems(
      deps,
      owner,
      [BLOCK, { ...BLOCK, name: "Keys", prodType: "other" }, { ...BLOCK, name: "Laptop", approxValue: "9000" }],
      "sv",
    );
    expect(result).toMatchObject({ ok: true });
    const rows = await itemsOf(owner);
    expect(rows.map((r) => r.name).sort()).toEqual(["Black phone", "Keys", "Laptop"]);
    expect(rows.find((r) => r.name === "Laptop")?.approxValue).toBe(9000);
  });

  it("one wrong block saves none, and each block gets its own errors", async () => {
    const result = await createItems(
      deps,
      owner,
      [BLOCK, { ...BLOCK, name: " ", findFee: "12.5" }, { ...BLOCK, prodType: "spaceship" }],
      "en",
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {},
        { name: "items.form.errors.nameRequired", findFee: "items.form.errors.findFeeWhole" },
        { prodType: "items.form.errors.prodTypeRequired" },
      ],
    });
    expect(await itemsOf(owner)).toEqual([]);
  });

  it("a failure while saving the third rolls back the first two", async () => {
    let calls = 0;
    const failingThird = {
      db: deps.db,
      clock: () => {
        if (++calls === 3) throw new Error("the database went away");
        return deps.clock();
      },
    };
    await expect(createItems(failingThird, owner, [BLOCK, BLOCK, BLOCK], "en")).rejects.toThrow("went away");
    expect(await itemsOf(owner)).toEqual([]);
  });

  it("saved, the three go on to payment: the first is remembered for the order page", async () => {
    const result = await registerItems(deps, {
      userId: owner,
      blocks: [BLOCK, BLOCK, BLOCK],
      lang: "sv",
      organisationId: null,
    });
    // No address with an email yet: the address form first, which continues to /order.
    expect(result).toEqual({ ok: true, next: "/user/register-adress" });
    expect(await getBuyItemId(deps, owner)).not.toBeNull();
    expect(await itemsOf(owner)).toHaveLength(3);
  });
});
