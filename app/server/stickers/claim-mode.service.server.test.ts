/**
 * Claim mode (decision 036): an organisation's admin claims printed stickers one code after
 * another into the organisation. On an in-memory SQLite through the real migrations.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "~/i18n/resources.server";
import { addMonths } from "~/lib/domain/pricing";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { createServiceDeps, type ServiceTestDeps } from "../../../tests/support/service-db";
import {
  createTestOrganisation,
  joinOrganisation,
  signUpOwner,
  spentClaimTries,
  type TestOwner,
} from "../../../tests/support/service-fixtures";
import { getOwnedItem } from "../items/items.service.server";
import { BATCH_FILE_MAX_BYTES } from "~/lib/domain/claim-mode";
import { claimBatchFile, claimIntoOrganisation, getClaimMode, previewBatchFile } from "./claim-mode.service.server";
import { createBatch, getBatch, unclaimedStickerState, voidSticker } from "./stickers.service.server";

// Sign-ups hash passwords: seconds each on a busy 2-core machine, past Vitest's 5 s.
vi.setConfig({ testTimeout: 30_000 });

let deps: ServiceTestDeps;
let admin: TestOwner;
let member: TestOwner;
let organisation: string;
let n = 0;

beforeEach(async () => {
  deps = await createServiceDeps({ RATE_LIMIT_DISABLED: "0" });
  admin = await signUpOwner(deps, { prefix: "claim-admin" });
  member = await signUpOwner(deps, { prefix: "claim-member" });
  organisation = await createTestOrganisation(deps, admin);
  await joinOrganisation(deps, organisation, member, "member");
});
afterEach(async () => {
  await deps.close();
});

async function stickers(size: number, prepaidMonths: 6 | 12 | null = null) {
  const id = await createBatch(deps, admin.id, { size, prepaidMonths, label: "Drawer" });
  return (await getBatch(deps, id)).stickers;
}
const who = (userId: string, ip = `10.1.0.${++n}`) => ({ userId, ip });

describe("claim mode", () => {
  it("only the organisation's admins use it: members and outsiders get notFound and claim nothing", async () => {
    const [s] = await stickers(1);
    const outsider = await signUpOwner(deps, { prefix: "claim-outsider" });
    for (const u of [member, outsider]) {
      await expect(getClaimMode(deps, u.id, organisation, [])).rejects.toMatchObject({ code: "org.notFound" });
      await expect(
        claimIntoOrganisation(deps, who(u.id), organisation, { code: s!.code, assignTo: null, name: "" }, "en"),
      ).rejects.toMatchObject({ code: "org.notFound" });
    }
    expect((await unclaimedStickerState(deps, s!.id))?.state).toBe("unclaimed");
  });

  it("each code becomes an item of the organisation, assigned to the chosen member, named after the sticker by default", async () => {
    const [a, b] = await stickers(2);
    const typed = ` ${formatStickerCode(a!.code).toLowerCase()} `;
    const first = await claimIntoOrganisation(
      deps,
      who(admin.id),
      organisation,
      { code: typed, assignTo: member.id, name: "" },
      "sv",
    );
    expect(first).toEqual({ id: a!.id, code: a!.code });
    const second = await claimIntoOrganisation(
      deps,
      who(admin.id),
      organisation,
      { code: b!.code, assignTo: null, name: "  Laptop 7 " },
      "en",
    );
    const rows = await deps.db
      .selectFrom("products")
      .select(["id", "code", "owner", "organisationId", "assignedTo", "name", "payed"])
      .where("id", "in", [first.id, second.id])
      .orderBy("name")
      .execute();
    expect(rows).toEqual([
      {
        id: a!.id,
        code: a!.code,
        owner: admin.id,
        organisationId: organisation,
        assignedTo: member.id,
        name: `Klistermärke ${formatStickerCode(a!.code)}`,
        payed: 0,
      },
      {
        id: b!.id,
        code: b!.code,
        owner: admin.id,
        organisationId: organisation,
        assignedTo: null,
        name: "Laptop 7",
        payed: 0,
      },
    ]);
    // The run lists the organisation's items only, newest first, whatever else the URL names.
    const page = await getClaimMode(deps, admin.id, organisation, [first.id, "zzzzzzzzzz", second.id]);
    expect(page.claimed.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(page.members.map((m) => m.id).sort()).toEqual([admin.id, member.id].sort());
  });

  it("a prepaid sticker's item is active for its months at once, as at /claim", async () => {
    const [s] = await stickers(1, 12);
    const { id } = await claimIntoOrganisation(
      deps,
      who(admin.id),
      organisation,
      { code: s!.code, assignTo: null, name: "" },
      "en",
    );
    expect((await getOwnedItem(deps, admin.id, id)).paid).toBe(true);
    const row = await deps.db.selectFrom("products").select("paidUntil").where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(row.paidUntil)).toBe(addMonths(deps.clock(), 12));
  });

  it("a claimed, voided or wrong code gets the one answer and costs a try; text that is no code costs none", async () => {
    const [s] = await stickers(1);
    const ip = "192.0.2.90";
    const attempt = (code: string) =>
      claimIntoOrganisation(deps, who(admin.id, ip), organisation, { code, assignTo: null, name: "" }, "en");
    for (let i = 0; i < 12; i++) await expect(attempt("not a code")).rejects.toMatchObject({ code: "claim.invalid" });
    for (let i = 0; i < 10; i++) {
      await expect(attempt("ZZZ-ZZZ-ZZZ")).rejects.toMatchObject({ code: "claim.notClaimable" });
    }
    await expect(attempt(s!.code)).rejects.toMatchObject({ code: "claim.rateLimited" });
    deps.setNow(deps.clock() + 15 * 60_000);
    await attempt(s!.code);
    await expect(attempt(s!.code)).rejects.toMatchObject({ code: "claim.notClaimable" });
  });

  it("an item is assigned only to a member of the organisation, refused before a try is counted or the code looked up", async () => {
    const [s] = await stickers(1);
    const outsider = await signUpOwner(deps, { prefix: "claim-outsider" });
    const ip = "192.0.2.91";
    // An unclaimed code and a wrong one get the same answer: the refusal tells nothing of the code.
    for (const code of [s!.code, "ZZZ-ZZZ-ZZZ"]) {
      await expect(
        claimIntoOrganisation(deps, who(admin.id, ip), organisation, { code, assignTo: outsider.id, name: "" }, "en"),
      ).rejects.toMatchObject({ code: "assigneeNotMember" });
    }
    await expect(
      claimBatchFile(deps, who(admin.id, ip), organisation, [{ id: s!.id, code: s!.code }], outsider.id, "en"),
    ).rejects.toMatchObject({ code: "assigneeNotMember" });
    expect((await unclaimedStickerState(deps, s!.id))?.state).toBe("unclaimed");
    const counted = await deps.db
      .selectFrom("app_rate_limits")
      .select("key")
      .where("key", "in", [`sticker-claim:ip:${ip}`, `sticker-claim:user:${admin.id}`])
      .execute();
    expect(counted).toEqual([]);
  });
});

describe("claiming a batch file", () => {
  const file = (rows: string[][], header = "id,code,url") =>
    new TextEncoder().encode([header, ...rows.map((r) => r.join(","))].join("\r\n") + "\r\n");

  it("claims every claimable sticker of the staff's file at once; claimed, voided and unknown rows are named; one try per file", async () => {
    const batchId = await createBatch(deps, admin.id, { size: 5, prepaidMonths: 6, label: "Drawer" });
    const all = (await getBatch(deps, batchId)).stickers;
    const [taken, voided, ...free] = all;
    await claimIntoOrganisation(
      deps,
      who(admin.id),
      organisation,
      { code: taken!.code, assignTo: null, name: "" },
      "en",
    );
    await voidSticker(deps, batchId, voided!.id);
    const rows = all.map((s) => [s.id, formatStickerCode(s.code), `https://hittad.example/${s.id}`]);
    // A guessed row: a real id with another code is no sticker.
    rows.push([free[0]!.id, "ZZZ-ZZZ-ZZZ", ""]);
    const ip = "192.0.2.120";
    const preview = await previewBatchFile(deps, who(admin.id, ip), organisation, file(rows));
    expect(preview.claimable.map((s) => s.id).sort()).toEqual(free.map((s) => s.id).sort());
    expect(preview.prepaid).toBe(3);
    expect(preview.counts).toEqual({ claimed: 1, voided: 1, unknown: 1 });
    expect(preview.refused.map((r) => [r.row, r.reason])).toEqual([
      [2, "claimed"],
      [3, "voided"],
      [7, "unknown"],
    ]);
    const count = await claimBatchFile(deps, who(admin.id, ip), organisation, preview.claimable, member.id, "sv");
    expect(count).toBe(3);
    const items = await deps.db
      .selectFrom("products")
      .select(["id", "organisationId", "assignedTo", "payed", "name"])
      .where(
        "id",
        "in",
        free.map((s) => s.id),
      )
      .execute();
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item).toMatchObject({ organisationId: organisation, assignedTo: member.id, payed: 1 });
      expect(item.name).toMatch(/^Klistermärke [0-9A-Z]{3}-[0-9A-Z]{3}-[0-9A-Z]{3}$/);
    }
    // The preview kept its try, the confirmation gave its own back.
    const counted = await deps.db
      .selectFrom("app_rate_limits")
      .select(["key", "count"])
      .where("key", "=", `sticker-claim:ip:${ip}`)
      .execute();
    expect(counted.map((r) => r.count)).toEqual([1]);
  });

  it("a sticker claimed between the preview and the confirmation: nothing of the file is claimed", async () => {
    const batchId = await createBatch(deps, admin.id, { size: 3, prepaidMonths: null, label: "Drawer" });
    const all = (await getBatch(deps, batchId)).stickers;
    const rows = all.map((s) => [s.id, s.code]);
    const preview = await previewBatchFile(deps, who(admin.id), organisation, file(rows, "id;code"));
    expect(preview.claimable).toHaveLength(3);
    await claimIntoOrganisation(
      deps,
      who(admin.id),
      organisation,
      { code: all[1]!.code, assignTo: null, name: "" },
      "en",
    );
    await expect(
      claimBatchFile(deps, who(admin.id), organisation, preview.claimable, null, "en"),
    ).rejects.toMatchObject({ code: "file.changed" });
    for (const s of [all[0]!, all[2]!]) expect((await unclaimedStickerState(deps, s.id))?.state).toBe("unclaimed");
  });

  it("a file that is not a batch file is refused before a try is counted; outsiders cannot upload", async () => {
    const ip = "192.0.2.121";
    for (const bytes of [
      new Uint8Array(),
      file([["a", "b"]], "name,fee"),
      file([], "id,code"),
      new Uint8Array([0x69, 0x64, 0x00]),
      new Uint8Array(BATCH_FILE_MAX_BYTES + 1).fill(0x41),
    ]) {
      await expect(previewBatchFile(deps, who(admin.id, ip), organisation, bytes)).rejects.toMatchObject({
        code: "file.invalid",
      });
    }
    expect(await spentClaimTries(deps)).toEqual([]);
    await expect(previewBatchFile(deps, who(member.id), organisation, file([["a", "b"]]))).rejects.toMatchObject({
      code: "org.notFound",
    });
  });
});
