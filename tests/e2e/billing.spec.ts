/**
 * The subscription lifecycle in both languages with the test provider (decision 016): pay, a renewal (as staff's
 * "Simulate renewal" does), the receipts on the
 * dashboard and the receipt PDF (text read by pdftotext: VAT line, totals, seller), cancel
 * renewal with its confirmation naming every item, resume, and a failed renewal's warning.
 * Axe on every page; screenshots at 390 and 1280 px for review.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { simulateFailedRenewal, simulateRenewal } from "../../app/server/orders/billing.service.server";
import { depsOf } from "../support/deps";
import { createUser } from "../support/users";
import { atPhoneAndDesk, expect, expectAccessible, test, waitForHydration, walkIn } from "./fixtures";
import { mergeAreas, registerResources } from "../../app/i18n/i18n";
import { ADDRESS } from "../support/service-fixtures";

// The simulated payments below write their mails in this process: its translations, read
// from the locale files (Playwright has no import.meta.glob), the server-only texts (mails,
// locales/<lang>/server/, decision 020) merged into the same keys as on the server.
function readAreas(dir: string, l: string) {
  return mergeAreas(
    Object.fromEntries(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => [`./${l}/${f}`, { default: JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) }]),
    ),
  );
}
function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const there = into[k];
    into[k] =
      there && typeof there === "object" && v && typeof v === "object"
        ? deepMerge({ ...(there as Record<string, unknown>) }, v as Record<string, unknown>)
        : v;
  }
  return into;
}
for (const l of ["en", "sv"] as const) {
  const dir = path.resolve(import.meta.dirname, "../../app/locales", l);
  registerResources(l, deepMerge(readAreas(dir, l), readAreas(path.join(dir, "server"), l)));
}

const TEXT = {
  en: {
    locale: "en-US",
    submit: "Go to payment",
    pay: "Complete test payment",
    billing: "Orders and receipts",
    receipt: /Receipt no\. \d+/,
    // The e2e seller has no VAT number: the receipt says no VAT is charged (decision 057).
    vat: "No VAT charged: the seller is not registered for VAT.",
    total: "Total",
    cancel: "Cancel renewal",
    confirm: "Yes, cancel renewal",
    minimumTerm: "The minimum term is 6 months, so the monthly payments continue until",
    cancelled: "Renewal cancelled. The items stay active until",
    resume: "Resume renewal",
    resumed: "Renewal resumed.",
    failed: "Payment failed: update your card",
    active: "Active",
  },
  sv: {
    locale: "sv-SE",
    submit: "Till betalning",
    pay: "Slutför testbetalningen",
    billing: "Beställningar och kvitton",
    receipt: /Kvitto nr \d+/,
    vat: "Ingen moms debiteras: säljaren är inte registrerad för moms.",
    total: "Totalt",
    cancel: "Avsluta förnyelsen",
    confirm: "Ja, avsluta förnyelsen",
    minimumTerm: "Minsta bindningstid är 6 månader, så månadsbetalningarna fortsätter till och med",
    cancelled: "Förnyelsen är avslutad. Sakerna är aktiva till och med",
    resume: "Återuppta förnyelsen",
    resumed: "Förnyelsen är återupptagen.",
    failed: "Betalningen misslyckades: uppdatera ditt kort",
    active: "Aktiv",
  },
} as const;

test.describe.configure({ timeout: 120_000 });

for (const lang of ["en", "sv"] as const) {
  const T = TEXT[lang];
  test.describe(`subscriptions in ${lang}`, () => {
    test.use({ locale: T.locale });

    walkIn("en", lang)(
      "pay, renew, receipts and PDF, cancel with confirmation, resume, failed renewal warning",
      async ({ page, app, context, consent }) => {
        void consent;
        const owner = await createUser(app.runtime, { name: "Anna Svensson", language: lang });
        const deps = depsOf(app.runtime);
        await keepOrderAddress(deps, owner.id, { ...ADDRESS, email: owner.email }, false);
        const names = ["Black phone", "Red keys"];
        for (const name of names) {
          await createItem(
            deps,
            owner.id,
            { name, findFee: 100, prodType: "other", contactInfo: "Call 070-111", payment: "year", intent: "payLater" },
            lang,
          );
        }
        await context.addCookies([{ ...owner.sessionCookie, url: app.server.url }]);

        // Pay (monthly) with the test provider.
        await page.goto("/order");
        await waitForHydration(page);
        await page.locator("#order-payment-month").check();
        await page.locator("#order-immediate-start").check();
        await page.getByRole("button", { name: T.submit }).click();
        await page.getByRole("button", { name: T.pay }).click();
        await expect(page).toHaveURL(/\/order\/complete\//);
        const orderId = page.url().split("/").pop()!;

        // A renewal, as staff's "Simulate renewal" does.
        expect(await simulateRenewal(deps, orderId)).toBe("applied");
        await page.goto("/dashboard");
        await expect(page.getByRole("heading", { name: T.billing })).toBeVisible();
        await expect(page.locator("#billing a[href*='/receipt?number=']")).toHaveCount(2);
        await expectAccessible(page);
        await atPhoneAndDesk(page, `dashboard-${lang}`);

        // The receipt page and its PDF.
        await page.locator("#billing a[href*='/receipt?number=']").first().click();
        await expect(page.getByRole("heading", { level: 1, name: T.receipt })).toBeVisible();
        await expect(page.getByText(T.vat)).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `receipt-${lang}`);
        const pdfHref = await page.locator("a[href*='receipt.pdf']").getAttribute("href");
        const pdf = await page.request.get(pdfHref!);
        expect(pdf.headers()["content-type"]).toBe("application/pdf");
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pdf-")), "r.pdf");
        fs.writeFileSync(file, await pdf.body());
        const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
        expect(text).toContain(T.vat);
        expect(text).toMatch(new RegExp(`${T.total}\\s+(€\\d|\\d+ kr)`));
        expect(text).toContain("Hittad");
        expect(text).toContain("Black phone");
        expect(text).toContain("Anna Svensson");

        // Cancel asks first and names every item of the subscription.
        await page.goto("/dashboard");
        await waitForHydration(page);
        await page.locator("#billing").getByRole("link", { name: T.cancel }).click();
        await expect(page).toHaveURL(new RegExp(`/order/${orderId}/cancel$`));
        for (const name of names) await expect(page.locator(".cancel-items")).toContainText(name);
        // Monthly inside the 6-month minimum term: it says the remaining payments still follow.
        await expect(page.getByText(T.minimumTerm)).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `cancel-${lang}`);
        await page.getByRole("button", { name: T.confirm }).click();
        await expect(page).toHaveURL(/\/dashboard\?billing=cancelled/);
        const alert = page.getByRole("alert").filter({ hasText: T.cancelled });
        await expect(alert).toBeVisible();
        await expect(alert).toBeFocused();
        // The card says "Active" once.
        const card = page.locator(".item-card").first();
        await expect(card.getByText(T.active, { exact: true })).toHaveCount(1);
        await expectAccessible(page);
        await atPhoneAndDesk(page, `cancelled-${lang}`);

        // Undo.
        await page.getByRole("button", { name: T.resume }).click();
        await expect(page.getByText(T.resumed)).toBeVisible();
        await expect(page.getByRole("button", { name: T.resume })).toHaveCount(0);

        // A failed renewal: a warning on the items and on the subscription.
        expect(await simulateFailedRenewal(deps, orderId)).toBe("applied");
        await page.reload();
        await expect(page.getByText(T.failed).first()).toBeVisible();
        await expect(page.locator(".billing-failed")).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `failed-${lang}`);
      },
    );
  });
}
