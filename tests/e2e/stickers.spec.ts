/**
 * Printed stickers, the walk of decision 036 (in English on CI; both with E2E_ALL_LANGUAGES=1): staff
 * create a prepaid batch of 3 and an unprepaid batch of 1 and download the
 * sheet (QR codes decode to the sticker URLs, codes printed); a new user scans one (the
 * anonymous page), signs up, claims it from the QR and sees the item active until the
 * prepaid end; another claims by typing the code and pays on /order (no sticker posted);
 * a finder scans the claimed sticker and reaches the owner. Axe on the new screens;
 * screenshots at 390 and 1280 px with SCREENSHOTS=1.
 */
import { grantAdmin } from "../../app/server/admin/admin.repository.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { labelOrigin, QR_BOX } from "../../app/server/fulfil/sticker-pdf.server";
import { addMonths } from "../../app/lib/domain/pricing";
import { formatDate } from "../../app/lib/domain/dates";
import { formatStickerCode } from "../../app/lib/domain/sticker-code";
import { depsOf } from "../support/deps";
import { decodeQrIn, pdfPages, pdfToText } from "../support/pdf";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, waitForPageReady, walkIn } from "./fixtures";

const TEXT = {
  en: {
    locale: "en-US",
    batches: "Sticker batches",
    label: "Label",
    size: "Number of stickers",
    months12: "12 months",
    notPrepaid: "Not prepaid (the owner pays when registering)",
    create: "Create the batch",
    claimedCount: "Claimed",
    unregistered: "This Hittad sticker is not registered yet",
    registerIt: "Register it",
    registerLink: "Register",
    name: "Name",
    email: "Email",
    password: "Password",
    claimTitle: "Register your sticker",
    itemName: "Name",
    fee: "Finder's fee",
    type: "Type",
    contact: "Contact info",
    savePrepaid: "Register the item",
    prepaidUntil: "Prepaid with its sticker, active until",
    claimPage: "Register a sticker",
    code: "Sticker code",
    continue: "Continue",
    notClaimable: "That code does not match a sticker that can be registered.",
    payNow: "Save and pay now",
    submit: "Go to payment",
    pay: "Complete test payment",
    message: "Your message",
    send: "Send message",
    spare: "Code of the spare sticker",
    moveOnto: "Move the item onto it",
  },
  sv: {
    locale: "sv-SE",
    batches: "Partier av klistermärken",
    label: "Etikett",
    size: "Antal klistermärken",
    months12: "12 månader",
    notPrepaid: "Inte förbetald (ägaren betalar vid registreringen)",
    create: "Skapa partiet",
    claimedCount: "Registrerade",
    unregistered: "Det här Hittad-klistermärket är inte registrerat än",
    registerIt: "Registrera det",
    registerLink: "Registrera dig",
    name: "Namn",
    email: "E-post",
    password: "Lösenord",
    claimTitle: "Registrera ditt klistermärke",
    itemName: "Namn",
    fee: "Hittelön",
    type: "Typ",
    contact: "Kontaktuppgifter",
    savePrepaid: "Registrera saken",
    prepaidUntil: "Förbetald med klistermärket, aktiv till",
    claimPage: "Registrera ett klistermärke",
    code: "Kod från klistermärket",
    continue: "Fortsätt",
    notClaimable: "Koden stämmer inte med något klistermärke som kan registreras.",
    payNow: "Spara och betala nu",
    submit: "Till betalning",
    pay: "Slutför testbetalningen",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    spare: "Koden på det extra klistermärket",
    moveOnto: "Flytta saken till det",
  },
} as const;

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`printed stickers (${lang})`, () => {
    test.use({ locale: T.locale });

    // One language per CI run, as the other long walks (decision 024): the claim screens in
    // Swedish are walked by qr-and-claim.spec.ts and claim-mode.spec.ts, and every page on a
    // phone in both languages by first-use.spec.ts. E2E_ALL_LANGUAGES=1 walks both.
    walkIn("en", lang)(
      "staff print batches; owners claim by QR and by code; a finder reaches the owner",
      async ({ page, browser, app, consent }) => {
        // The whole walk (staff, a PDF decoded, two owners, a finder, a spare): about
        // 50 s alone, 90 s with the rest of a busy 2-core machine.
        test.setTimeout(180_000);
        void consent;
        const base = app.server.url.replace(/\/$/, "");
        const db = app.runtime.database.db;

        // Staff: two batches from the user menu's page.
        const adminEmail = `batches-${lang}-${Date.now()}@example.test`;
        await grantAdmin(db, adminEmail);
        const admin = await createUser(app.runtime, { name: "Staff Member", email: adminEmail, language: lang });
        const staff = await browser.newContext({ locale: T.locale, baseURL: app.server.url });
        await staff.addCookies([
          { name: "ConsentApproved", value: "true", url: app.server.url },
          { ...admin.sessionCookie, url: app.server.url },
        ]);
        const desk = await staff.newPage();
        const batch = async (label: string, size: string, prepaid: string) => {
          await desk.goto("/admin/batches");
          await waitForHydration(desk);
          await desk.getByLabel(T.label).fill(label);
          await desk.getByLabel(T.size).fill(size);
          await desk.getByLabel(prepaid).check();
          await desk.getByRole("button", { name: T.create }).click();
          await expect(desk).toHaveURL(/\/admin\/batches\/[0-9a-f-]{36}$/);
          await expect(desk.getByRole("heading", { level: 1, name: label })).toBeVisible();
          return desk.url().split("/").pop()!;
        };
        const packId = await batch(`Retail pack 3 (${lang})`, "3", T.months12);
        await expectAccessible(desk);
        await atPhoneAndDesk(desk, `batch-${lang}`);
        const singleId = await batch(`Single (${lang})`, "1", T.notPrepaid);
        await desk.goto("/admin/batches");
        await expect(desk.getByRole("link", { name: `Retail pack 3 (${lang})` })).toBeVisible();
        await expectAccessible(desk);
        await atPhoneAndDesk(desk, `batches-${lang}`);

        // The sheet: each QR code holds {BASE_URL}/{id}, each code is printed under it.
        const stickers = await db
          .selectFrom("stickers")
          .select(["id", "code", "batchId"])
          .where("batchId", "in", [packId, singleId])
          .orderBy("id")
          .execute();
        const pack = stickers.filter((s) => s.batchId === packId);
        const single = stickers.find((s) => s.batchId === singleId)!;
        const sheet = await desk.request.get(`/admin/batches/${packId}/stickers.pdf?lang=${lang}`);
        expect(sheet.status()).toBe(200);
        const pdf = Buffer.from(await sheet.body());
        const text = pdfToText(pdf).replace(/[-\s]/g, "");
        for (const s of pack) expect(text).toContain(s.code);
        const [sheetPage] = pdfPages(pdf, 200);
        const decoded = pack.map((_, i) => {
          const at = labelOrigin(i);
          return decodeQrIn(sheetPage!, 200, {
            x: at.x + QR_BOX.x,
            y: at.y + QR_BOX.y,
            width: QR_BOX.size,
            height: QR_BOX.size,
          });
        });
        expect(decoded).toEqual(pack.map((s) => `${base}/${s.id}`));

        // A new user scans the first sticker: the anonymous page says it is not registered.
        const scanned = decoded[0]!;
        await page.goto(scanned);
        await waitForPageReady(page);
        await expect(page.getByRole("heading", { level: 1, name: T.unregistered })).toBeVisible();
        // The hand-in help quotes the code as printed on the sticker (K7M-29Q-XHR).
        await expect(page.getByText(formatStickerCode(pack[0]!.code))).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `sticker-unregistered-${lang}`);
        await page.getByRole("link", { name: T.registerIt }).click();
        await expect(page).toHaveURL(/\/login$/);
        await page.getByRole("link", { name: T.registerLink, exact: true }).click();
        await waitForPageReady(page);
        await page.getByLabel(T.name).fill("Nora Nilsson");
        await page.getByLabel(T.email).fill(`nora-${lang}-${Date.now()}@example.test`);
        await page.getByLabel(T.password, { exact: true }).fill("a long enough secret");
        await page.getByRole("button", { name: T.registerLink, exact: true }).click();
        // Back to the claim, which opens the product form for this sticker.
        await expect(page).toHaveURL(new RegExp(`/product/register\\?sticker=${pack[0]!.id}$`), { timeout: 20_000 });
        await expect(page.getByRole("heading", { level: 1, name: T.claimTitle })).toBeVisible();
        await expect(page.getByText(formatStickerCode(pack[0]!.code))).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `claim-form-${lang}`);
        await waitForHydration(page);
        await page.getByLabel(T.itemName, { exact: true }).fill("Red bike");
        await page.getByLabel(T.fee).fill("200");
        await page.getByLabel(T.type).selectOption("other");
        await page.getByLabel(T.contact).fill("070-123 45 67");
        await page.getByRole("button", { name: T.savePrepaid }).click();
        await expect(page).toHaveURL(/\/dashboard/);
        const until = formatDate(addMonths(Date.now(), 12), lang);
        await atPhoneAndDesk(page, `claim-dashboard-${lang}`);
        // The owner's view of the item: active until the prepaid end, no receipt, no order.
        await page.goto(`/product/${pack[0]!.id}`);
        await expect(page.locator(".item-prepaid")).toHaveText(`${T.prepaidUntil} ${until}`);
        await atPhoneAndDesk(page, `claim-item-${lang}`);

        // Another owner types the single sticker's code (lower case, spaces) and pays on /order.
        const other = await createUser(app.runtime, { name: "Olle Ek", language: lang });
        await keepOrderAddress(
          depsOf(app.runtime),
          other.id,
          {
            firstname: "Olle",
            lastname: "Ek",
            email: other.email,
            co: "",
            address: "Storgatan 1",
            address2: "",
            city: "Uppsala",
            state: "",
            zip: "753 20",
            country: "Sweden",
          },
          false,
        );
        const typer = await browser.newContext({ locale: T.locale, baseURL: app.server.url });
        await typer.addCookies([
          { name: "ConsentApproved", value: "true", url: app.server.url },
          { ...other.sessionCookie, url: app.server.url },
        ]);
        const owner2 = await typer.newPage();
        await owner2.goto("/dashboard");
        await owner2.locator('main a[href="/claim"]').first().click();
        await expect(owner2.getByRole("heading", { level: 1, name: T.claimPage })).toBeVisible();
        await owner2.getByLabel(T.code).fill("zzz zzz zzz");
        await owner2.getByRole("button", { name: T.continue }).click();
        await expect(owner2.getByRole("alert")).toContainText(T.notClaimable);
        await expectAccessible(owner2);
        await atPhoneAndDesk(owner2, `claim-code-${lang}`);
        await owner2.getByLabel(T.code).fill(` ${formatStickerCode(single.code).toLowerCase().replace(/-/g, " - ")} `);
        await owner2.getByRole("button", { name: T.continue }).click();
        await expect(owner2).toHaveURL(new RegExp(`/product/register\\?sticker=${single.id}$`));
        await waitForHydration(owner2);
        await owner2.getByLabel(T.itemName, { exact: true }).fill("Laptop");
        await owner2.getByLabel(T.fee).fill("500");
        await owner2.getByLabel(T.type).selectOption("laptop");
        await owner2.getByLabel(T.contact).fill("olle@example.test");
        await owner2.getByRole("button", { name: T.payNow }).click();
        await expect(owner2).toHaveURL(/\/order\?item=\w+$/);
        await waitForHydration(owner2);
        await owner2.locator("#order-immediate-start").check();
        await owner2.getByRole("button", { name: T.submit }).click();
        await expect(owner2).toHaveURL(/\/order\/checkout\//, { timeout: 30_000 });
        await waitForHydration(owner2);
        await owner2.getByRole("button", { name: T.pay }).click();
        await expect(owner2).toHaveURL(/\/order\/complete\//, { timeout: 30_000 });
        const paid = await db
          .selectFrom("products")
          .select(["payed", "code"])
          .where("id", "=", single.id)
          .executeTakeFirstOrThrow();
        expect({ payed: Number(paid.payed), code: paid.code }).toEqual({ payed: 1, code: single.code });
        // The sticker is already on the laptop: no shipment is queued for the order.
        const shipments = await db
          .selectFrom("sticker_shipments")
          .select("id")
          .where("userId", "=", other.id)
          .execute();
        expect(shipments).toEqual([]);
        await expect
          .poll(async () => {
            await desk.goto(`/admin/batches/${singleId}`);
            return desk.getByTestId("batch-claimed").textContent();
          })
          .toBe("1");

        // A finder scans the prepaid sticker: the item page, and a message reaches the owner.
        const finderContext = await browser.newContext({ locale: T.locale, baseURL: app.server.url });
        await finderContext.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
        const finder = await finderContext.newPage();
        await finder.goto(scanned);
        await waitForPageReady(finder);
        await expect(finder.getByRole("heading", { level: 1 })).toContainText("Red bike");
        await finder.getByLabel(T.message).fill(`Found your bike at the station (${lang})`);
        await finder.getByRole("button", { name: T.send }).click();
        await expect(finder).toHaveURL(/\/m\/[^/]+\?sent=1$/);
        const messages = await db
          .selectFrom("conversation_messages")
          .innerJoin("conversations", "conversations.id", "conversation_messages.conversationId")
          .select("conversation_messages.text")
          .where("conversations.itemId", "=", pack[0]!.id)
          .execute();
        expect(messages.map((m) => m.text)).toContain(`Found your bike at the station (${lang})`);

        // The owner moves the bike onto a spare sticker of the pack: the old one is "replaced".
        await page.goto(`/product/${pack[0]!.id}/replacement`);
        await waitForHydration(page);
        await atPhoneAndDesk(page, `spare-${lang}`);
        await page.getByLabel(T.spare).fill(formatStickerCode(pack[1]!.code).toLowerCase());
        await page.getByRole("button", { name: T.moveOnto }).click();
        // /product/{id}, or /{id} once the page has shortened the address bar (after 400 ms).
        await expect(page).toHaveURL(new RegExp(`/(product/)?${pack[1]!.id}$`));
        expect((await finder.goto(scanned))!.status()).toBe(410);
        await staff.close();
        await typer.close();
        await finderContext.close();
      },
    );
  });
}
