/**
 * The companies walk of decision 022, in both languages: an owner creates a company account
 * from /companies (in English a German company with an EU VAT number, in Swedish a Swedish
 * one), invites a colleague whose mailed link (real SMTP stand-in), opened in their own
 * browser, accepts the invite; the admin switches to the organisation in the header,
 * uploads a 50-row CSV with one bad row (the row's translated error, nothing saved), then
 * the corrected file as Swedish Excel writes it (semicolons, a BOM, a quoted cell with a
 * semicolon, rows assigned to the member), confirms the import and pages through the items.
 * Then (decisions 026, 027): the admin assigns one more item on the product form; the
 * member's dashboard in the organisation shows exactly their four items and their form has
 * no assignment field; the admin pays for those four by invoice in test mode (reverse charge
 * in English, Swedish VAT in Swedish), marks it paid and finds it paid on the organisation
 * page; a finder without JavaScript sees the desk's contact (not the person's text on the
 * item) and writes; the member's and the desk's inboxes both show it, the desk replies and
 * the finder reads it at the private link; last, the CSV export (assignees, paid until).
 * The payment comes before the finder: an item is shown to finders once it is active, and
 * an invoiced item is active from the invoice (decision 027).
 *
 * One browser walk per language (CI time, decision 024), each step a `test.step`. It
 * replaces organisation-items.spec.ts and invoices.spec.ts. Axe on the new screens in
 * Swedish only (the longer words), the simulated invoice in English (reverse charge); width
 * checks at 390 and 1280 px on every screen in both; SCREENSHOTS=1 saves them.
 */
import type { Browser, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { SCOPE_COOKIE } from "../../app/lib/domain/organisation-roles";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { depsOf } from "../support/deps";
import { createUser, type TestUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, type WorkerApp } from "./fixtures";
import { uniqueOrgNumber } from "../support/org-numbers";

const ROWS = 50;
/** The data row that is wrong in the first file (1-based); in a spreadsheet it is row BAD_ROW + 1. */
const BAD_ROW = 10;

const L = {
  en: {
    locale: "en-US",
    create: "Create a company account",
    fields: {
      name: "Organisation name",
      orgNumber: "Organisation number",
      billingEmail: "Billing email",
      street: "Street address",
      postcode: "Postcode",
      city: "City",
      desk: "Lost-and-found desk contact",
      country: "Country",
      vat: "VAT number (optional)",
    },
    /** A German company with an EU VAT number: the invoice is reverse charge (decision 027). */
    address: { street: "Hauptstraße 1", postcode: "10115", city: "Berlin", country: "DE", vat: "DE123456789" },
    createSubmit: "Create the organisation",
    created: "The organisation is created. You are its admin.",
    dpaRequired: "First accept the data processing agreement above",
    dpaTick: (org: string) =>
      `I have read the agreement and accept it on behalf of ${org}, which I am authorised to represent.`,
    dpaAccept: "Accept the agreement",
    dpaAccepted: "The data processing agreement is accepted. You can now invite members and import items.",
    inviteEmail: "Email address",
    sendInvite: "Send invite",
    invited: "The invite is sent. The link works for 7 days.",
    // A consent request (decision 046): the organisation is named on the invite page, not in the mail.
    inviteSubject: "You are invited to an organisation on Hittad",
    acceptLead: (org: string) => `You are invited to join ${org} on Hittad as a member.`,
    accept: "Accept the invite",
    joined: "Welcome! You are now a member of the organisation.",
    youAreMember: "You are a member",
    quoted: (value: string) => `“${value}”`,
    importInto: (org: string) => `Items are imported into the organisation ${org}.`,
    importLink: "Import from CSV",
    exportLink: "Export as CSV",
    file: "CSV file",
    contact: "Contact info for the imported items",
    preview: "Preview",
    errorsLead: "1 problem found. Nothing was saved: correct the file and upload it again.",
    typeColumn: "Type",
    typeInvalid: "The type must be mobile, laptop or other (or as the app writes them: Mobile phone, Laptop, Other).",
    empty: "You have no items yet. Register your first item to get its QR code.",
    count: `The file has ${ROWS} items.`,
    confirm: `Import ${ROWS} items`,
    imported: `${ROWS} items imported.`,
    toDashboard: "Go to the dashboard",
    range1: `Showing 1–24 of ${ROWS} items.`,
    range3: `Showing 49–${ROWS} of ${ROWS} items.`,
    page3: "Page 3",
    deskTitle: (org: string) => `Contact the lost-and-found desk of ${org}`,
    assignLabel: "Assigned to",
    contactInfo: "Contact info",
    payLater: "Save and pay later",
    select: (name: string) => `Activate ${name}`,
    payByInvoice: "Pay by invoice",
    sendBillingLink: "Send confirmation link",
    billingConfirmed: "the billing email of",
    testBanner: "TEST — not a real invoice",
    markPaid: "Mark as paid (test)",
    invoiceOpen: "Open",
    invoicePaid: "Paid",
    invoices: "Invoices and receipts",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    reply: "Your reply",
    sendReply: "Send reply",
    replySent: "Your reply has been sent.",
    csv: {
      header: ["name", "type", "fee", "assigned member email", "visibility"],
      exportHeader: [
        "name",
        "type",
        "fee",
        "assigned member email",
        "visibility",
        "id",
        "sticker code",
        "paid until",
        "photos",
      ],
      types: ["mobile", "laptop", "other"],
      badType: "tablet",
      private: "private",
      public: "public",
      name: (i: number) => `Laptop ${String(i).padStart(2, "0")} (en)`,
      separator: ",",
    },
  },
  sv: {
    locale: "sv-SE",
    create: "Skapa ett företagskonto",
    fields: {
      name: "Organisationens namn",
      orgNumber: "Organisationsnummer",
      billingEmail: "E-post för fakturor",
      street: "Gatuadress",
      postcode: "Postnummer",
      city: "Ort",
      desk: "Kontakt till hittegodsdisken",
      country: "Land",
      vat: "Momsregistreringsnummer (valfritt)",
    },
    /** A Swedish company: Swedish VAT on the invoice. */
    address: { street: "Storgatan 1", postcode: "111 22", city: "Stockholm", country: "SE", vat: "" },
    createSubmit: "Skapa organisationen",
    created: "Organisationen är skapad. Du är dess administratör.",
    dpaRequired: "Godkänn först personuppgiftsbiträdesavtalet ovan",
    dpaTick: (org: string) => `Jag har läst avtalet och godkänner det för ${org}, som jag har rätt att företräda.`,
    dpaAccept: "Godkänn avtalet",
    dpaAccepted: "Personuppgiftsbiträdesavtalet är godkänt. Nu kan du bjuda in medlemmar och importera saker.",
    inviteEmail: "E-postadress",
    sendInvite: "Skicka inbjudan",
    invited: "Inbjudan är skickad. Länken fungerar i 7 dagar.",
    inviteSubject: "Du är inbjuden till en organisation på Hittad",
    acceptLead: (org: string) => `Du är inbjuden att gå med i ${org} på Hittad som medlem.`,
    accept: "Tacka ja till inbjudan",
    joined: "Välkommen! Du är nu medlem i organisationen.",
    youAreMember: "Du är medlem",
    quoted: (value: string) => `”${value}”`,
    importInto: (org: string) => `Sakerna importeras till organisationen ${org}.`,
    importLink: "Importera från CSV",
    exportLink: "Exportera som CSV",
    file: "CSV-fil",
    contact: "Kontaktuppgifter för de importerade sakerna",
    preview: "Förhandsgranska",
    errorsLead: "1 fel hittades. Inget sparades: rätta filen och ladda upp den igen.",
    typeColumn: "Typ",
    typeInvalid:
      "Typen ska vara mobil, dator eller annat (eller som appen skriver dem: Mobiltelefon, Bärbar dator, Annat).",
    empty: "Du har inga saker än. Registrera din första sak för att få dess QR-kod.",
    count: `Filen har ${ROWS} saker.`,
    confirm: `Importera ${ROWS} saker`,
    imported: `${ROWS} saker importerades.`,
    toDashboard: "Till Min sida",
    range1: `Visar 1–24 av ${ROWS} saker.`,
    range3: `Visar 49–${ROWS} av ${ROWS} saker.`,
    page3: "Sida 3",
    deskTitle: (org: string) => `Kontakta hittegodsdisken hos ${org}`,
    assignLabel: "Tilldelad",
    contactInfo: "Kontaktuppgifter",
    payLater: "Spara och betala senare",
    select: (name: string) => `Aktivera ${name}`,
    payByInvoice: "Betala mot faktura",
    sendBillingLink: "Skicka bekräftelselänk",
    billingConfirmed: "Faktura-e-posten för",
    testBanner: "TEST — inte en riktig faktura",
    markPaid: "Markera som betald (test)",
    invoiceOpen: "Obetald",
    invoicePaid: "Betald",
    invoices: "Fakturor och kvitton",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    reply: "Ditt svar",
    sendReply: "Skicka svar",
    replySent: "Ditt svar har skickats.",
    csv: {
      header: ["namn", "typ", "hittelön", "tilldelad medlem (e-post)", "synlighet"],
      exportHeader: [
        "namn",
        "typ",
        "hittelön",
        "tilldelad medlem (e-post)",
        "synlighet",
        "id",
        "klistermärkeskod",
        "betald till",
        "foton",
      ],
      types: ["mobil", "dator", "annat"],
      badType: "surfplatta",
      private: "privat",
      public: "offentlig",
      name: (i: number) => `Bärbar dator ${String(i).padStart(2, "0")} (sv)`,
      separator: ";",
    },
  },
} as const;

type Lang = keyof typeof L;
type Texts = (typeof L)[Lang];

/** Rows 1–3 are assigned to the member (one address in capitals: any case is the member's). */
const ASSIGNED = [1, 2, 3];
/** Row 4 is assigned to the member later, by the admin on the product form; a finder writes to it. */
const ASSIGNED_ON_FORM = 4;
/** The member's items after the assignment, and the items the admin pays for by invoice. */
const MEMBERS = [...ASSIGNED, ASSIGNED_ON_FORM];
const PAID = MEMBERS;
/** Row 5's name holds the separator, so the cell is quoted. */
const QUOTED = 5;
/** Row 7's fee as Swedish Excel writes a thousand: a no-break space and "kr". */
const SWEDISH_FEE = 7;

function itemName(s: Texts, i: number) {
  return i === QUOTED ? `Reception; spare phone ${String(i).padStart(2, "0")}` : s.csv.name(i);
}

/**
 * The spreadsheet as Swedish Excel saves it: semicolons, CRLF and a UTF-8 BOM. `bad`: row
 * BAD_ROW has a type the import does not know.
 */
function spreadsheet(s: Texts, member: TestUser, bad: boolean): Buffer {
  const quote = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [s.csv.header.join(";")];
  for (let i = 1; i <= ROWS; i++) {
    const type = bad && i === BAD_ROW ? s.csv.badType : s.csv.types[i % 3]!;
    const fee = i === SWEDISH_FEE ? "1\u00a0000 kr" : String(100 + i);
    const assigned = ASSIGNED.includes(i) ? (i === 2 ? member.email.toUpperCase() : member.email) : "";
    const visibility = i % 10 === 0 ? s.csv.private : "";
    lines.push([itemName(s, i), type, fee, assigned, visibility].map(quote).join(";"));
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join("\r\n") + "\r\n", "utf8")]);
}

/** A second user's own browser (the invited colleague); its console errors fail the test too. */
async function ownBrowser(browser: Browser, app: WorkerApp, user: TestUser, locale: string) {
  const context = await browser.newContext({ baseURL: app.server.url, locale });
  await context.addCookies([
    { name: "ConsentApproved", value: "true", url: app.server.url },
    { ...user.sessionCookie, url: app.server.url },
  ]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return { context, page, problems };
}

async function upload(page: Page, s: Texts, name: string, file: Buffer) {
  await page.getByLabel(s.file, { exact: true }).setInputFiles({ name, mimeType: "text/csv", buffer: file });
  await page.getByRole("button", { name: s.preview, exact: true }).click();
}

for (const [lang, s] of Object.entries(L) as [Lang, Texts][]) {
  test.describe(`companies (${lang})`, () => {
    test.use({ locale: s.locale });
    // One long journey through two browsers, a mail and two uploads on a shared machine.
    test.describe.configure({ timeout: 240_000 });

    test("an owner creates a company account, invites a colleague by mail, imports 50 items from CSV after a refused file, assigns one, pays by invoice, the member and the desk answer a finder, and exports them", async ({
      browser,
      app,
      page,
      context,
      consent,
    }) => {
      void consent;
      const admin = await createUser(app.runtime, { name: `Alva Admin ${lang}`, language: lang });
      const member = await createUser(app.runtime, { name: `Max Member ${lang}`, language: lang });
      await context.addCookies([{ ...admin.sessionCookie, url: app.server.url }]);
      const orgName = `Ljusgården ${lang} AB`;
      const desk = `Reception ${lang}: 08-123 45 67`;
      const axe = lang === "sv";
      let orgId = "";
      /** The colleague's own browser, open from the invite to the desk's inbox. */
      let colleague: Awaited<ReturnType<typeof ownBrowser>> | undefined;
      /** The item the admin assigns on the form, the finder writes to; its person's contact text. */
      let formItem = "";
      const secret = `personal-070-SECRET-${lang}`;
      const found = `Found by the lifts (${lang})`;
      const answer = `Thanks! Collect it at the reception (${lang}).`;

      await test.step("the owner follows 'Create a company account' from /companies and creates the organisation", async () => {
        await page.goto("/companies");
        await waitForHydration(page);
        await page.getByRole("link", { name: s.create, exact: true }).first().click();
        await expect(page).toHaveURL(/\/organisations\/new$/);
        await expect(page.getByRole("heading", { level: 1, name: s.create })).toBeVisible();
        await atPhoneAndDesk(page, `companies-org-new-${lang}`);
        const f = s.fields;
        await page.getByLabel(f.name, { exact: true }).fill(orgName);
        await page.getByLabel(f.orgNumber, { exact: true }).fill(uniqueOrgNumber());
        await page.getByLabel(f.billingEmail, { exact: true }).fill(`invoices-${lang}@example.test`);
        await page.getByLabel(f.street, { exact: true }).fill(s.address.street);
        await page.getByLabel(f.postcode, { exact: true }).fill(s.address.postcode);
        await page.getByLabel(f.city, { exact: true }).fill(s.address.city);
        await page.getByLabel(f.country, { exact: true }).selectOption(s.address.country);
        await page.getByLabel(f.vat, { exact: true }).fill(s.address.vat);
        await page.getByLabel(f.desk, { exact: true }).fill(desk);
        await page.getByRole("button", { name: s.createSubmit }).click();
        await expect(page).toHaveURL(/\/organisations\/[A-Za-z0-9]{10}\?done=created$/);
        await expect(page.getByRole("status")).toHaveText(s.created);
        await expect(page.getByRole("heading", { level: 1, name: orgName })).toBeVisible();
        orgId = /\/organisations\/([A-Za-z0-9]{10})/.exec(page.url())![1]!;
      });

      await test.step("the admin must accept the data processing agreement before the first invite (issue #31 point 4)", async () => {
        await waitForHydration(page);
        await page.getByLabel(s.inviteEmail, { exact: true }).fill(member.email);
        await page.getByRole("button", { name: s.sendInvite }).click();
        await expect(page.getByRole("alert")).toContainText(s.dpaRequired);
        await page.getByLabel(s.dpaTick(orgName), { exact: true }).check();
        await page.getByRole("button", { name: s.dpaAccept }).click();
        await expect(page.getByRole("status")).toHaveText(s.dpaAccepted);
      });

      await test.step("the admin invites a colleague as member; the invite mail arrives", async () => {
        await waitForHydration(page);
        await page.getByLabel(s.inviteEmail, { exact: true }).fill(member.email);
        await page.getByRole("button", { name: s.sendInvite }).click();
        await expect(page.getByRole("status")).toHaveText(s.invited);
        await expect(page.getByText(member.email, { exact: true })).toBeVisible();
        // The sent address does not stay in the field for a second invite.
        await expect(page.getByLabel(s.inviteEmail, { exact: true })).toHaveValue("");
        if (axe) await expectAccessible(page, { label: "the organisation page" });
        await atPhoneAndDesk(page, `companies-organisation-${lang}`);
      });

      await test.step("the mailed link, opened in the colleague's own browser, accepts the invite", async () => {
        const mail = await app.smtp.waitForMail((m) => m.to.includes(member.email) && m.subject === s.inviteSubject);
        expect(mail.text).not.toContain(orgName);
        const link = /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
        expect(link, "the invite link in the mail").toBeTruthy();
        colleague = await ownBrowser(browser, app, member, s.locale);
        const p = colleague.page;
        await p.goto(new URL(link!).pathname);
        await waitForHydration(p);
        await expect(p.getByText(s.acceptLead(orgName))).toBeVisible();
        if (axe) await expectAccessible(p, { label: "the invite page" });
        await atPhoneAndDesk(p, `companies-invite-${lang}`);
        await p.getByRole("button", { name: s.accept }).click();
        await expect(p).toHaveURL(new RegExp(`/organisations/${orgId}\\?done=joined$`));
        await expect(p.getByRole("status")).toHaveText(s.joined);
        await expect(p.getByText(s.youAreMember, { exact: false })).toBeVisible();
      });

      await test.step("the admin switches to the organisation in the header", async () => {
        await page.reload();
        await waitForHydration(page);
        await page.locator("#scope-switch-select").selectOption({ label: orgName });
        await page.locator(".scope-switch button[type=submit]").click();
        await expect(page.locator("#user-menu .scope-badge")).toContainText(orgName);
      });

      await test.step("a file with one bad row: the row's translated error, nothing saved", async () => {
        await page.goto("/dashboard/import");
        await waitForHydration(page);
        await expect(page.getByText(s.importInto(orgName))).toBeVisible();
        // In an organisation the contact text starts as its desk contact.
        await expect(page.getByLabel(s.contact, { exact: true })).toHaveValue(desk);
        await upload(page, s, "items.csv", spreadsheet(s, member, true));
        await expect(page.getByText(s.errorsLead)).toBeVisible();
        const row = page.locator("table.csv-errors tbody tr");
        await expect(row).toHaveCount(1);
        // The refused value is shown beside its message.
        await expect(row.locator("td")).toHaveText([
          String(BAD_ROW + 1),
          s.typeColumn,
          s.quoted(s.csv.badType),
          s.typeInvalid,
        ]);
        await expect(page.getByRole("button", { name: s.confirm })).toHaveCount(0);
        if (axe) await expectAccessible(page, { label: "the import's error preview" });
        await atPhoneAndDesk(page, `companies-import-errors-${lang}`);

        await page.goto("/dashboard");
        await expect(page.getByText(s.empty)).toBeVisible();
      });

      await test.step("the corrected file (semicolons, BOM, a quoted semicolon, assigned rows): preview, confirm, 50 imported", async () => {
        await waitForHydration(page);
        await page.getByRole("link", { name: s.importLink }).click();
        await expect(page).toHaveURL(/\/dashboard\/import$/);
        await upload(page, s, "items-corrected.csv", spreadsheet(s, member, false));
        await expect(page.getByText(s.count, { exact: true })).toBeVisible();
        await expect(page.getByRole("cell", { name: itemName(s, QUOTED), exact: true })).toBeVisible();
        // Any case is the member's address.
        const memberCell = new RegExp(`^${member.email.replace(/[.+]/g, "\\$&")}$`, "i");
        await expect(page.getByRole("cell", { name: memberCell })).toHaveCount(ASSIGNED.length);
        await atPhoneAndDesk(page, `companies-import-preview-${lang}`);
        await page.getByRole("button", { name: s.confirm }).click();
        await expect(page).toHaveURL(/\/dashboard\/import\?batch=\d+$/);
        await expect(page.getByText(s.imported, { exact: true })).toBeVisible();
        await atPhoneAndDesk(page, `companies-import-done-${lang}`);
      });

      await test.step("the dashboard lists the organisation's 50 items, 24 to a page", async () => {
        await page.getByRole("link", { name: s.toDashboard }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.locator(".dashboard-range")).toHaveText(s.range1);
        await page.getByRole("link", { name: s.page3, exact: true }).click();
        await expect(page.locator(".dashboard-range")).toHaveText(s.range3);
        await atPhoneAndDesk(page, `companies-dashboard-${lang}`);
      });

      await test.step("the admin assigns an item to the member on the product form; the dashboard card says so", async () => {
        const rows = await app.runtime.database.db
          .selectFrom("products")
          .select(["id", "name"])
          .where("organisationId", "=", orgId)
          .execute();
        formItem = rows.find((r) => r.name === itemName(s, ASSIGNED_ON_FORM))!.id;
        await page.goto(`/product/edit/${formItem}`);
        await waitForHydration(page);
        await page.getByLabel(s.assignLabel, { exact: true }).selectOption({ label: member.name });
        // A person's own text on the item: the finder must see the desk instead (decision 026).
        await page.getByLabel(s.contactInfo, { exact: true }).fill(secret);
        if (axe) await expectAccessible(page, { label: "the product form with the assignment" });
        await atPhoneAndDesk(page, `companies-assign-${lang}`);
        // Not paid yet: saved with "pay later" (the invoice comes below).
        await page.getByRole("button", { name: s.payLater }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await page.goto(`/dashboard?q=${encodeURIComponent(itemName(s, ASSIGNED_ON_FORM))}`);
        const card = page.locator(".item-card", { hasText: itemName(s, ASSIGNED_ON_FORM) });
        await expect(card.locator(".item-assignee")).toHaveText(member.name);
      });

      await test.step("the member's dashboard in the organisation's scope shows exactly the assigned items; the member cannot assign", async () => {
        const p = colleague!.page;
        await colleague!.context.addCookies([{ name: SCOPE_COOKIE, value: orgId, url: app.server.url }]);
        await p.goto("/dashboard");
        await waitForHydration(p);
        const cards = p.locator(".item-card");
        await expect(cards).toHaveCount(MEMBERS.length);
        for (const i of MEMBERS) await expect(cards.filter({ hasText: itemName(s, i) })).toHaveCount(1);
        await atPhoneAndDesk(p, `companies-member-dashboard-${lang}`);
        // The member edits the item but has no assignment field (absent means unchanged).
        await p.goto(`/product/edit/${formItem}`);
        await expect(p.getByLabel(s.contactInfo, { exact: true })).toHaveValue(secret);
        await expect(p.locator("#product-assignedTo")).toHaveCount(0);
      });

      await test.step("the admin pays for the member's items by invoice in test mode and marks the invoice paid; the organisation lists it as paid", async () => {
        // The stickers' postal address (the order page asks for it first; tested in orders.spec).
        await keepOrderAddress(
          depsOf(app.runtime),
          admin.id,
          {
            firstname: "Alva",
            lastname: "Admin",
            email: admin.email,
            co: "",
            address: s.address.street,
            address2: "",
            city: s.address.city,
            state: "",
            zip: s.address.postcode,
            country: lang === "en" ? "Germany" : "Sweden",
          },
          false,
        );
        // First the billing email is confirmed by its mailed link (decision 028).
        await page.goto(`/organisations/${orgId}`);
        await waitForHydration(page);
        await page.getByRole("button", { name: s.sendBillingLink }).click();
        await expect(page).toHaveURL(/done=billingLinkSent/);
        const confirmation = await app.runtime.database.db
          .selectFrom("mail_outbox")
          .select("text")
          .where("to", "=", `invoices-${lang}@example.test`)
          .orderBy("createdAt", "desc")
          .executeTakeFirstOrThrow();
        const link = /\/organisations\/billing-email\/[A-Za-z0-9_-]+/.exec(confirmation.text)![0];
        await page.goto(link);
        await expect(page.getByRole("status")).toContainText(s.billingConfirmed);
        await atPhoneAndDesk(page, `companies-billing-confirmed-${lang}`);
        await page.goto("/order");
        await waitForHydration(page);
        await expect(page.locator(".order-invoice")).toContainText(`invoices-${lang}@example.test`);
        // Every unpaid item starts ticked: untick them all, then tick the member's four.
        const ticked = page.locator("input.order-check:checked");
        await ticked.evaluateAll((boxes) => boxes.forEach((b) => (b as HTMLInputElement).click()));
        await expect(ticked).toHaveCount(0);
        for (const i of PAID) await page.getByLabel(s.select(itemName(s, i)), { exact: true }).check();
        await expect(ticked).toHaveCount(PAID.length);
        if (axe) await expectAccessible(page, { label: "the order page with pay by invoice" });
        await atPhoneAndDesk(page, `companies-order-${lang}`);
        await page.getByRole("button", { name: s.payByInvoice, exact: true }).click();

        await expect(page).toHaveURL(/\/order\/[0-9a-f-]{36}\/invoice$/);
        await expect(page.locator(".invoice-test-banner")).toContainText(s.testBanner);
        // The test seller has no VAT number: the invoice charges no VAT and says so, as the
        // receipts do (decision 057); the reverse charge of decision 027 for an EU company is
        // held by the invoice service tests.
        await expect(page.locator(".invoice-no-vat")).toHaveCount(1);
        await expect(page.locator(".invoice-reverse-charge")).toHaveCount(0);
        await expect(page.locator(".invoice-state")).toHaveText(s.invoiceOpen);
        // Axe here in English (one language is enough for the same markup).
        if (lang === "en") await expectAccessible(page, { label: "the simulated invoice" });
        await atPhoneAndDesk(page, `companies-invoice-${lang}`);
        await page.getByRole("button", { name: s.markPaid }).click();
        await expect(page.locator(".invoice-state")).toHaveText(s.invoicePaid);

        await page.goto(`/organisations/${orgId}`);
        await expect(page.getByRole("heading", { name: s.invoices })).toBeVisible();
        const invoice = page.locator(".org-invoices .org-invoice");
        await expect(invoice).toHaveCount(1);
        await expect(invoice.locator(".badge")).toHaveText(s.invoicePaid);
        await expect(invoice.locator("a[href*='/receipt?number=']")).toHaveCount(1);
        if (axe) await expectAccessible(page, { label: "the organisation's invoices" });
        await atPhoneAndDesk(page, `companies-invoices-${lang}`);
      });

      await test.step("a finder without JavaScript writes to the desk from the item; the member and the desk see it; the desk's reply reaches the finder", async () => {
        // The item is active since the invoice was sent; a finder on a phone, JavaScript off.
        const phone = await browser.newContext({
          baseURL: app.server.url,
          viewport: { width: 390, height: 844 },
          javaScriptEnabled: false,
          locale: s.locale,
        });
        await phone.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
        const finder = await phone.newPage();
        await finder.goto(`/${formItem}`);
        await expect(finder.getByRole("heading", { level: 2, name: s.deskTitle(orgName) })).toBeVisible();
        await expect(finder.getByText(desk)).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(secret);
        await atPhoneAndDesk(finder, `companies-finder-${lang}`);
        await finder.getByLabel(s.message, { exact: true }).fill(found);
        await finder.getByRole("button", { name: s.send }).click();
        await expect(finder.getByRole("status")).toHaveText(s.sent);
        await expect(finder).toHaveURL(/\/m\/[A-Za-z0-9_-]{43}\?sent=1$/);
        const link = new URL(finder.url()).pathname;

        // The assigned member's inbox.
        const m = colleague!.page;
        await m.goto("/messages");
        await expect(m.getByText(found)).toBeVisible();
        await colleague!.context.close();
        expect(colleague!.problems, "console errors in the colleague's browser").toEqual([]);

        // The desk (the admin) has it too, and answers.
        await page.goto("/messages");
        await waitForHydration(page);
        await expect(page.getByText(found)).toBeVisible();
        if (axe) await expectAccessible(page, { label: "the desk's inbox" });
        await atPhoneAndDesk(page, `companies-desk-inbox-${lang}`);
        await page.locator(".relay-inbox a").first().click();
        await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
        await page.getByLabel(s.reply, { exact: true }).fill(answer);
        await page.getByRole("button", { name: s.sendReply }).click();
        await expect(page.getByRole("status")).toHaveText(s.replySent);

        await finder.goto(link);
        await expect(finder.getByText(answer)).toBeVisible();
        await expect(finder.locator("body")).not.toContainText(admin.email);
        await phone.close();
      });

      await test.step("the CSV export has the header and the 50 imported items, in the user's language", async () => {
        await page.goto("/dashboard");
        await expect(page.getByRole("link", { name: s.exportLink })).toHaveAttribute("href", "/dashboard/export.csv");
        // Fetched by the page, so with its cookies (the session and the organisation scope).
        const res = await page.evaluate(async () => {
          const r = await fetch("/dashboard/export.csv");
          const bytes = new Uint8Array(await r.arrayBuffer());
          return {
            status: r.status,
            type: r.headers.get("content-type"),
            bom: [...bytes.slice(0, 3)],
            text: new TextDecoder().decode(bytes),
          };
        });
        expect(res.status).toBe(200);
        expect(res.type).toBe("text/csv; charset=utf-8");
        expect(res.bom, "Excel needs the BOM to read UTF-8").toEqual([0xef, 0xbb, 0xbf]);
        const [header, ...rows] = parse(res.text, { delimiter: s.csv.separator }) as string[][];
        expect(header).toEqual(s.csv.exportHeader);
        expect(rows).toHaveLength(ROWS);
        const byName = new Map(rows.map((r) => [r[0]!, r]));
        const expected = Array.from({ length: ROWS }, (_, k) => itemName(s, k + 1));
        expect([...byName.keys()].sort()).toEqual([...expected].sort());
        for (let i = 1; i <= ROWS; i++) {
          const [, type, fee, assigned, visibility, id, code, paidUntil] = byName.get(itemName(s, i))!;
          expect({ type, fee, assigned, visibility }, `row ${i}`).toEqual({
            type: s.csv.types[i % 3],
            fee: i === SWEDISH_FEE ? "1000" : String(100 + i),
            assigned: MEMBERS.includes(i) ? member.email : "",
            visibility: i % 10 === 0 ? s.csv.private : s.csv.public,
          });
          expect(id).toMatch(/^[A-Za-z0-9]{10}$/);
          expect(code).not.toBe("");
          // Paid by the invoice: a year from the order, as a plain date.
          if (PAID.includes(i)) expect(paidUntil, `row ${i}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          else expect(paidUntil, `row ${i}`).toBe("");
        }
        expect(new Set(rows.map((r) => r[5])).size).toBe(ROWS);
      });
    });
  });
}
