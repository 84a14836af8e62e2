/**
 * Claimable stickers (decision 036) on an in-memory SQLite through the real migrations:
 * batches, voiding, claiming once, prepaid activation, one answer for wrong and taken
 * codes, and the claim limit. The double claim at once runs on both databases in
 * tests/integration/sticker-claims.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addMonths } from "~/lib/domain/pricing";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import { ADDRESS, RED_BIKE, signUpOwner, spentClaimTries } from "../../../tests/support/service-fixtures";
import { createItem, getOwnedItem } from "../items/items.service.server";
import { idOrCodeTaken } from "../access/items.repository.server";
import { keepOrderAddress } from "../order-draft/order-draft.service.server";
import { createOrder } from "../orders/checkout.service.server";
import { isReplacedSticker } from "../fulfil/fulfil.service.server";
import { applyPayment } from "../orders/payment-events.service.server";
import {
  BATCH_MAX,
  checkClaimable,
  claimSticker,
  createBatch,
  getBatch,
  listBatches,
  moveOntoSpare,
  prepaidRecordOfItem,
  unclaimedStickerState,
  voidBatch,
  voidSticker,
} from "./stickers.service.server";

// Sign-ups hash passwords: seconds each on a busy 2-core machine, past Vitest's 5 s.
vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let n = 0;

/** An account as signed up: not verified, no order address. */
async function user() {
  return (await signUpOwner(deps, { verified: false, address: false, prefix: "stickers" })).id;
}
const who = (userId: string, ip = `10.0.0.${++n}`) => ({ userId, ip });

async function batch(size: number, prepaidMonths: 6 | 12 | null = null) {
  const staff = await user();
  const id = await createBatch(deps, staff, { size, prepaidMonths, label: "Retail pack" });
  return getBatch(deps, id);
}

beforeEach(async () => {
  deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
});
afterEach(async () => {
  await deps.close();
});

describe("sticker batches", () => {
  it("a batch holds 1 to 10,000 stickers with unique ids and codes, none claimed", async () => {
    const { batch: b, stickers } = await batch(500, 12);
    expect(b).toMatchObject({ size: 500, prepaidMonths: 12, label: "Retail pack", claimed: 0, voided: 0 });
    expect(new Set(stickers.map((s) => s.id)).size).toBe(500);
    expect(new Set(stickers.map((s) => s.code)).size).toBe(500);
    expect(stickers.every((s) => s.claimedAt === null && /^[A-Za-z0-9]{10}$/.test(s.id))).toBe(true);
    const staff = await user();
    for (const size of [0, BATCH_MAX + 1, 1.5]) {
      await expect(createBatch(deps, staff, { size, prepaidMonths: null, label: "" })).rejects.toMatchObject({
        code: "batch.size",
      });
    }
    await expect(createBatch(deps, staff, { size: 1, prepaidMonths: 3 as 6, label: "" })).rejects.toMatchObject({
      code: "batch.prepaid",
    });
    expect((await listBatches(deps)).map((x) => x.id)).toContain(b.id);
  });

  it("a batch of 10,000 is made at once", async () => {
    const { batch: b } = await batch(BATCH_MAX);
    expect(b.size).toBe(BATCH_MAX);
  }, 60_000);

  it("an unclaimed sticker's id and code are taken for new items (one namespace)", async () => {
    const { stickers } = await batch(1);
    expect(await idOrCodeTaken(deps.db, stickers[0]!.id, "ZZZZZZZZZ")).toBe(true);
    expect(await idOrCodeTaken(deps.db, "zzzzzzzzzz", stickers[0]!.code)).toBe(true);
  });

  it("voiding a batch voids its unclaimed stickers and leaves claimed ones with their items", async () => {
    const { batch: b, stickers } = await batch(3);
    const owner = await user();
    await claimSticker(deps, who(owner), { id: stickers[0]!.id }, RED_BIKE, "en");
    await voidBatch(deps, b.id);
    const after = await getBatch(deps, b.id);
    expect(after.batch).toMatchObject({ claimed: 1, voided: 2 });
    expect((await unclaimedStickerState(deps, stickers[1]!.id))?.state).toBe("voided");
    expect((await getOwnedItem(deps, owner, stickers[0]!.id)).name).toBe("Red bike");
  });

  it("a single sticker can be voided while unclaimed, never after its claim", async () => {
    const { batch: b, stickers } = await batch(2);
    await voidSticker(deps, b.id, stickers[0]!.id);
    expect((await unclaimedStickerState(deps, stickers[0]!.id))?.state).toBe("voided");
    expect((await unclaimedStickerState(deps, stickers[1]!.id))?.state).toBe("unclaimed");
    await claimSticker(deps, who(await user()), { id: stickers[1]!.id }, RED_BIKE, "en");
    await expect(voidSticker(deps, b.id, stickers[1]!.id)).rejects.toMatchObject({ code: "sticker.notVoidable" });
    expect(await unclaimedStickerState(deps, stickers[1]!.id)).toBeNull();
  });
});

describe("claiming a sticker", () => {
  it("the item takes the sticker's id and code, so the printed QR opens it", async () => {
    const { stickers } = await batch(1);
    const s = stickers[0]!;
    const owner = await user();
    // Typed as a person reads it off the sticker: lower case, spaces and dashes.
    const typed = ` ${formatStickerCode(s.code).toLowerCase().replace("-", " - ")} `;
    expect(await checkClaimable(deps, who(owner), { code: typed })).toMatchObject({ id: s.id });
    const id = await claimSticker(deps, who(owner), { code: typed }, RED_BIKE, "sv");
    expect(id).toBe(s.id);
    const row = await deps.db
      .selectFrom("products")
      .select(["id", "code", "owner"])
      .where("id", "=", id)
      .executeTakeFirst();
    expect(row).toEqual({ id: s.id, code: s.code, owner });
  });

  it("an unprepaid sticker's item is unpaid; a prepaid one is active for its months at once", async () => {
    const owner = await user();
    const plain = (await batch(1)).stickers[0]!;
    const pack = (await batch(1, 6)).stickers[0]!;
    await claimSticker(deps, who(owner), { id: plain.id }, RED_BIKE, "en");
    await claimSticker(deps, who(owner), { id: pack.id }, RED_BIKE, "en");
    expect((await getOwnedItem(deps, owner, plain.id)).paid).toBe(false);
    expect(await prepaidRecordOfItem(deps, plain.id)).toBeNull();
    expect((await getOwnedItem(deps, owner, pack.id)).paid).toBe(true);
    const until = addMonths(deps.clock(), 6);
    expect(await prepaidRecordOfItem(deps, pack.id)).toEqual({ months: 6, claimedAt: deps.clock(), until });
    deps.setNow(until + 1);
    expect((await getOwnedItem(deps, owner, pack.id)).paid).toBe(false);
  });

  it("a sticker is claimed once: wrong, claimed and voided codes get the same answer", async () => {
    const { batch: b, stickers } = await batch(2);
    await claimSticker(deps, who(await user()), { id: stickers[0]!.id }, RED_BIKE, "en");
    await voidSticker(deps, b.id, stickers[1]!.id);
    const others: string[] = [];
    for (const ref of [
      { id: stickers[0]!.id },
      { code: stickers[0]!.code },
      { code: stickers[1]!.code },
      { code: "ZZZZZZZZZ" },
      { id: "nope" },
    ]) {
      const other = await user();
      others.push(other);
      await expect(checkClaimable(deps, who(other), ref)).rejects.toMatchObject({ code: "claim.notClaimable" });
      await expect(claimSticker(deps, who(other), ref, RED_BIKE, "en")).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    expect(await deps.db.selectFrom("products").select("id").where("owner", "in", others).execute()).toEqual([]);
  });

  it("an owner typing their own registered code is told it is theirs, with the item; anyone else as for a wrong code", async () => {
    const { stickers } = await batch(1);
    const s = stickers[0]!;
    const owner = await user();
    const id = await claimSticker(deps, who(owner), { id: s.id }, RED_BIKE, "en");
    for (const ref of [{ id: s.id }, { code: s.code }, { code: s.code.toLowerCase().replace(/-/g, " ") }]) {
      await expect(checkClaimable(deps, who(owner), ref)).rejects.toMatchObject({
        code: "claim.alreadyYours",
        params: { id },
      });
      const stranger = await user();
      const answer = await checkClaimable(deps, who(stranger), ref).catch((e: unknown) => e);
      const wrong = await checkClaimable(deps, who(stranger), { code: "ZZZZZZZZZ" }).catch((e: unknown) => e);
      expect(answer).toMatchObject({ code: "claim.notClaimable", params: {} });
      expect(answer).toEqual(wrong);
    }
  });

  it("wrong codes count against 10 tries per 15 minutes per user, and good ones do not", async () => {
    const { stickers } = await batch(2);
    const owner = await user();
    const s = stickers[0]!;
    for (let i = 0; i < 9; i++) {
      await expect(checkClaimable(deps, who(owner), { code: "ZZZZZZZZZ" })).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    // Good ones are given back: still one try left after them.
    await checkClaimable(deps, who(owner), { id: s.id });
    await claimSticker(deps, who(owner), { id: s.id }, RED_BIKE, "en");
    // The owner's own registered code is no guess: it costs nothing either.
    await expect(checkClaimable(deps, who(owner), { id: s.id })).rejects.toMatchObject({ code: "claim.alreadyYours" });
    await expect(checkClaimable(deps, who(owner), { code: "ZZZZZZZZZ" })).rejects.toMatchObject({
      code: "claim.notClaimable",
    });
    await expect(checkClaimable(deps, who(owner), { id: stickers[1]!.id })).rejects.toMatchObject({
      code: "claim.rateLimited",
    });
    deps.setNow(deps.clock() + 15 * 60_000);
    expect((await checkClaimable(deps, who(owner), { id: stickers[1]!.id })).id).toBe(stickers[1]!.id);
  });

  it("text that cannot be a code is a form error and costs no try; well-formed wrong codes do", async () => {
    const { stickers } = await batch(1);
    const owner = await user();
    const ip = "192.0.2.44";
    // More refused forms than the limit allows tries: none of them counts.
    for (const typed of ["", "   ", "not a code", "K7M-29Q", "K7M-29Q-XHR-2", "O0O-O0O-O0O", "x".repeat(65)]) {
      await expect(checkClaimable(deps, who(owner, ip), { code: typed })).rejects.toMatchObject({
        code: "claim.invalid",
      });
      await expect(claimSticker(deps, who(owner, ip), { code: typed }, RED_BIKE, "en")).rejects.toMatchObject({
        code: "claim.invalid",
      });
    }
    // An id that cannot be an id (a mangled link) gets the one answer, also without a try.
    for (let i = 0; i < 11; i++) {
      await expect(checkClaimable(deps, who(owner, ip), { id: "nope" })).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    expect(await spentClaimTries(deps)).toEqual([]);
    // Real look-ups count, before they look: ten wrong well-formed codes spend the tries.
    for (let i = 0; i < 10; i++) {
      await expect(checkClaimable(deps, who(owner, ip), { code: "ZZZ-ZZZ-ZZZ" })).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    await expect(checkClaimable(deps, who(owner, ip), { id: stickers[0]!.id })).rejects.toMatchObject({
      code: "claim.rateLimited",
    });
  });

  it("wrong codes count against 10 tries per 15 minutes per IP, whoever is signed in", async () => {
    const { stickers } = await batch(1);
    const ip = "192.0.2.7";
    for (let i = 0; i < 10; i++) {
      await expect(checkClaimable(deps, who(await user(), ip), { code: "ZZZZZZZZZ" })).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    await expect(
      claimSticker(deps, who(await user(), ip), { id: stickers[0]!.id }, RED_BIKE, "en"),
    ).rejects.toMatchObject({
      code: "claim.rateLimited",
    });
    expect((await unclaimedStickerState(deps, stickers[0]!.id))?.state).toBe("unclaimed");
  });

  it("paying for a claimed unprepaid sticker's item activates it and posts no second sticker", async () => {
    const owner = await user();
    await keepOrderAddress(deps, owner, ADDRESS, false);
    const s = (await batch(1)).stickers[0]!;
    await claimSticker(deps, who(owner), { id: s.id }, RED_BIKE, "en");
    const pay = async (items: string[]) => {
      const o = await createOrder(deps, { userId: owner, itemIds: items, period: "year", lang: "en" });
      await applyPayment(deps, {
        eventId: `evt_${o.id}`,
        eventType: "invoice.paid",
        orderId: o.id,
        paidAt: deps.clock(),
        amount: { total: o.totalAmount, currency: o.currency },
      });
      return deps.db.selectFrom("sticker_shipments").select("id").where("orderId", "=", o.id).execute();
    };
    expect(await pay([s.id])).toHaveLength(0);
    expect((await getOwnedItem(deps, owner, s.id)).paid).toBe(true);
    // An item registered the usual way still gets its sticker posted.
    expect(await pay([await createItem(deps, owner, RED_BIKE, "en")])).toHaveLength(1);
  });

  it("an owner moves an item onto a spare sticker: its id and code are the item's, the old ones are retired", async () => {
    const owner = await user();
    const oldId = await createItem(deps, owner, RED_BIKE, "en");
    const { batch: b, stickers } = await batch(3);
    const spare = stickers[0]!;
    // Someone else's item cannot be moved, and a claimed or voided code is no spare.
    await expect(moveOntoSpare(deps, who(await user()), oldId, spare.code)).rejects.toMatchObject({ code: "notFound" });
    await claimSticker(deps, who(await user()), { id: stickers[1]!.id }, RED_BIKE, "en");
    await voidSticker(deps, b.id, stickers[2]!.id);
    for (const s of [stickers[1]!, stickers[2]!]) {
      await expect(moveOntoSpare(deps, who(owner), oldId, s.code)).rejects.toMatchObject({
        code: "claim.notClaimable",
      });
    }
    const typed = formatStickerCode(spare.code).toLowerCase();
    expect(await moveOntoSpare(deps, who(owner), oldId, typed)).toEqual({ id: spare.id });
    const row = await deps.db.selectFrom("products").select(["id", "code"]).where("owner", "=", owner).execute();
    expect(row).toEqual([{ id: spare.id, code: spare.code }]);
    expect(await isReplacedSticker(deps, oldId)).toBe(true);
    // Used once: the spare is claimed now.
    await expect(moveOntoSpare(deps, who(owner), spare.id, spare.code)).rejects.toMatchObject({
      code: "claim.notClaimable",
    });
  });
});
