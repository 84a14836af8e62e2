/**
 * Two owners claiming one printed sticker at once: exactly one gets the item (decision
 * 036), on SQLite and, with DATABASE_URL=postgres://…, on PostgreSQL. Services only, no
 * server: the race is in the conditional update and the transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../app/i18n/resources.server";
import type { Runtime } from "../../app/server/runtime.server";
import { claimSticker, createBatch, getBatch, voidSticker } from "../../app/server/stickers/stickers.service.server";
import { batchCsv, batchSheet } from "../../app/server/stickers/batch-files.server";
import { labelOrigin, QR_BOX } from "../../app/server/fulfil/sticker-pdf.server";
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { decodeQrIn, pdfPages, pdfToText } from "../support/pdf";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { depsOf } from "../support/deps";
import { claimBatchFile } from "../../app/server/stickers/claim-mode.service.server";
import { createOrganisation } from "../../app/server/organisations/organisations.service.server";
import { insertMember } from "../../app/server/organisations/organisations.repository.server";

let tdb: TestDatabase;
let rt: Runtime;
let n = 0;

async function user() {
  const { user } = await rt.auth.api.signUpEmail({
    body: { name: "Anna Svensson", email: `claims-${++n}@example.test`, password: "pw-Secret-123!" },
  });
  return user.id;
}

beforeAll(async () => {
  tdb = await createTestDatabase("claims");
  rt = await createTestRuntime(testEnv(tdb));
});
afterAll(async () => {
  await rt?.database.close();
  await tdb?.drop();
});

describe(`double claims (${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL" : "SQLite"})`, () => {
  it("of owners claiming one sticker at once, exactly one wins and one item exists", async () => {
    const deps = depsOf(rt);
    const batchId = await createBatch(deps, await user(), { size: 5, prepaidMonths: 12, label: "Race" });
    const { stickers } = await getBatch(deps, batchId);
    const owners = await Promise.all(Array.from({ length: 6 }, () => user()));
    for (const s of stickers) {
      const results = await Promise.allSettled(
        owners.map((owner, i) =>
          claimSticker(
            deps,
            { userId: owner, ip: `10.1.${i}.${s.id.length}` },
            { code: s.code },
            {
              name: `Laptop of ${i}`,
              findFee: 0,
              prodType: "laptop",
              contactInfo: "",
              contactVisibility: "public",
              payment: "year",
              intent: "payLater",
            },
            "en",
          ),
        ),
      );
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
        Array(owners.length - 1).fill("claim.notClaimable"),
      );
      const items = await rt.database.db
        .selectFrom("products")
        .select(["id", "owner"])
        .where("id", "=", s.id)
        .execute();
      expect(items).toHaveLength(1);
    }
    expect((await getBatch(deps, batchId)).batch.claimed).toBe(5);
  });
});

describe("a batch's files for the print shop", () => {
  it("of two admins confirming one batch file at once, one claims all of it and the other none (file.changed)", async () => {
    const deps = depsOf(rt);
    const [first, second] = [await user(), await user()];
    const organisation = await createOrganisation(deps, first, {
      name: "Race AB",
      orgNumber: `556${String(++n).padStart(3, "0")}-${String(process.pid % 10000).padStart(4, "0")}`,
      billingEmail: `race-${n}@company.example`,
      invoiceStreet: "Storgatan 1",
      invoicePostcode: "903 26",
      invoiceCity: "Umeå",
      invoiceCountry: "SE",
      vatNumber: null,
      deskContact: "Reception",
    });
    await insertMember(rt.database.db, {
      organisationId: organisation,
      userId: second,
      role: "admin",
      createdAt: Date.now(),
    });
    for (let round = 0; round < 4; round++) {
      const batchId = await createBatch(deps, first, { size: 4, prepaidMonths: null, label: `File race ${round}` });
      const pairs = (await getBatch(deps, batchId)).stickers.map((s) => ({ id: s.id, code: s.code }));
      const results = await Promise.allSettled(
        [first, second].map((admin, i) =>
          claimBatchFile(deps, { userId: admin, ip: `10.9.${round}.${i}` }, organisation, pairs, null, "en"),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled").map((r) => r.value)).toEqual([4]);
      const refused = results.find((r) => r.status === "rejected");
      expect(refused?.reason).toMatchObject({ code: "file.changed" });
      const items = await rt.database.db
        .selectFrom("products")
        .select("id")
        .where(
          "id",
          "in",
          pairs.map((p) => p.id),
        )
        .execute();
      expect(items).toHaveLength(4);
    }
  });

  it("the sheet's QR codes hold {BASE_URL}/{id} with each code printed; the CSV lists them; voided ones are left out", async () => {
    const deps = depsOf(rt);
    const batchId = await createBatch(deps, await user(), { size: 4, prepaidMonths: 6, label: "Print" });
    const { stickers } = await getBatch(deps, batchId);
    await voidSticker(deps, batchId, stickers[3]!.id);
    const printable = stickers.slice(0, 3);
    const base = rt.config.baseUrl.origin;

    const pdf = await batchSheet(deps, batchId, "sv");
    const text = pdfToText(pdf);
    for (const s of printable) expect(text).toContain(formatStickerCode(s.code));
    expect(text).not.toContain(formatStickerCode(stickers[3]!.code));
    const dpi = 200;
    const [page] = pdfPages(pdf, dpi);
    const decoded = printable.map((_, i) => {
      const at = labelOrigin(i);
      return decodeQrIn(page!, dpi, {
        x: at.x + QR_BOX.x,
        y: at.y + QR_BOX.y,
        width: QR_BOX.size,
        height: QR_BOX.size,
      });
    });
    expect(decoded).toEqual(printable.map((s) => `${base}/${s.id}`));

    const csv = (await batchCsv(deps, batchId)).trim().split("\r\n");
    expect(csv).toEqual([
      "id,code,url",
      ...printable.map((s) => `${s.id},${formatStickerCode(s.code)},${base}/${s.id}`),
    ]);
  });
});
