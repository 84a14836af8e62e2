/**
 * /account in both languages (decision 017): the page itself (axe, phone and desk widths),
 * name and language, password change signing out another browser, "sign out of all other
 * devices", email change through the mailed link, "Download my data", and deleting the
 * account (ends signed out on / with a message, sign-in fails, item pages 404, mail).
 */
import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createUser, signIn, type TestUser } from "../support/users";
import {
  atPhoneAndDesk,
  expect,
  expectAccessible,
  test,
  waitForHydration,
  waitForPageReady,
  type WorkerApp,
  walkIn,
} from "./fixtures";

const texts = {
  en: {
    locale: "en-US",
    title: "Account",
    menu: "Account menu",
    menuLink: "Account",
    name: "Name",
    save: "Save",
    saved: "Your changes are saved.",
    currentPassword: "Current password",
    newPassword: "New password",
    changePassword: "Change password",
    passwordChanged: "Your password is changed. Every other device is signed out.",
    signOutOthers: "Sign out of all other devices",
    signedOutOthers: "Every other device is signed out.",
    newEmail: "New email address",
    changeEmail: "Change email address",
    emailSent: "We sent a confirmation link to the new address.",
    download: "Download my data",
    deleteLink: "Delete my account…",
    deleteTitle: "Delete your account",
    yourPassword: "Your password",
    confirm: "I understand that my account and items are deleted for good.",
    deleteSubmit: "Delete my account",
    deleted: "Your account is deleted. Thank you for using Hittad.",
    deletedSubject: "Your Hittad account is deleted",
    signIn: "Sign in",
    email: "Email",
    password: "Password",
    wrong: "Wrong email or password.",
    wrongPassword: "The password is not correct.",
    switchOff: "Switch off sticker: Blue backpack",
    switchOn: "Switch on sticker: Blue backpack",
    switchedOff: "The sticker is switched off: finders see that it is not active.",
    notActive: "This sticker is not active",
    editItem: "Edit",
    deleteItem: "Delete item",
    deleteItemTitle: "Delete “Blue backpack”?",
    deleteItemSubmit: "Delete the item",
    itemDeleted: "The item is deleted. Its sticker no longer works.",
  },
  sv: {
    locale: "sv-SE",
    title: "Konto",
    menu: "Kontomeny",
    menuLink: "Konto",
    name: "Namn",
    save: "Spara",
    saved: "Dina ändringar är sparade.",
    currentPassword: "Nuvarande lösenord",
    newPassword: "Nytt lösenord",
    changePassword: "Byt lösenord",
    passwordChanged: "Ditt lösenord är bytt. Alla andra enheter är utloggade.",
    signOutOthers: "Logga ut från alla andra enheter",
    signedOutOthers: "Alla andra enheter är utloggade.",
    newEmail: "Ny e-postadress",
    changeEmail: "Byt e-postadress",
    emailSent: "Vi har skickat en bekräftelselänk till den nya adressen.",
    download: "Ladda ner mina uppgifter",
    deleteLink: "Radera mitt konto…",
    deleteTitle: "Radera ditt konto",
    yourPassword: "Ditt lösenord",
    confirm: "Jag förstår att mitt konto och mina saker raderas och inte går att återställa.",
    deleteSubmit: "Radera mitt konto",
    deleted: "Ditt konto är raderat. Tack för att du använde Hittad.",
    deletedSubject: "Ditt Hittad-konto är raderat",
    signIn: "Logga in",
    email: "E-post",
    password: "Lösenord",
    wrong: "Fel e-postadress eller lösenord.",
    wrongPassword: "Lösenordet stämmer inte.",
    switchOff: "Stäng av klistermärket: Blue backpack",
    switchOn: "Slå på klistermärket: Blue backpack",
    switchedOff: "Klistermärket är avstängt: den som hittar saken ser att det inte är aktivt.",
    notActive: "Det här klistermärket är inte aktivt",
    editItem: "Redigera",
    deleteItem: "Radera sak",
    deleteItemTitle: "Radera ”Blue backpack”?",
    deleteItemSubmit: "Radera saken",
    itemDeleted: "Saken är raderad. Klistermärket fungerar inte längre.",
  },
} as const;

/** A second browser (another device) signed in as the same user. */
async function otherDevice(browser: Browser, app: WorkerApp, u: TestUser) {
  const s = await signIn(app.runtime, u.email, u.password);
  const context = await browser.newContext();
  await context.addCookies([
    { ...s.sessionCookie, url: app.server.url },
    { name: "ConsentApproved", value: "true", url: app.server.url },
  ]);
  return context;
}

async function signedOut(page: Page, app: WorkerApp) {
  const res = await page.request.get(`${app.server.url}/account`, { maxRedirects: 0 });
  return res.status() === 302 && res.headers()["location"] === "/login";
}

for (const lang of ["en", "sv"] as const) {
  const tx = texts[lang];
  test.describe(`account (${lang})`, () => {
    test.use({ locale: tx.locale });

    async function signedInUser(app: WorkerApp, page: Page, name = "Karin Konto") {
      const u = await createUser(app.runtime, { name, language: lang });
      await page.context().addCookies([
        { ...u.sessionCookie, url: app.server.url },
        { name: "ConsentApproved", value: "true", url: app.server.url },
      ]);
      return u;
    }

    walkIn("sv", lang)(
      "the account page: reached from the user menu, accessible, name saved, other devices signed out",
      async ({ page, app, browser }) => {
        test.slow();
        const u = await signedInUser(app, page);
        const other = await otherDevice(browser, app, u);
        await page.goto("/dashboard");
        await waitForHydration(page);
        await page.getByRole("button", { name: tx.menu }).click();
        await page.getByRole("link", { name: tx.menuLink, exact: true }).click();
        await page.waitForURL("**/account");
        await expect(page.getByRole("heading", { level: 1, name: tx.title })).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `account-${lang}`);

        await page.getByLabel(tx.name, { exact: true }).fill("Karin Nyberg");
        await page.getByRole("button", { name: tx.save, exact: true }).click();
        await expect(page.getByRole("status").filter({ hasText: tx.saved })).toBeVisible();
        await expect(page.getByLabel(tx.name, { exact: true })).toHaveValue("Karin Nyberg");

        const otherPage = await other.newPage();
        expect(await signedOut(otherPage, app)).toBe(false);
        await page.getByRole("button", { name: tx.signOutOthers }).click();
        await expect(page.getByRole("status").filter({ hasText: tx.signedOutOthers })).toBeVisible();
        expect(await signedOut(otherPage, app)).toBe(true);
        expect(await signedOut(page, app)).toBe(false);
        await other.close();
      },
    );

    walkIn("en", lang)(
      "a failed password change keeps the focus on its message; a good one signs out the other browser",
      async ({ page, app, browser }) => {
        test.slow();
        const u = await signedInUser(app, page);
        const other = await otherDevice(browser, app, u);
        const otherPage = await other.newPage();
        await page.goto("/account");
        await waitForHydration(page);
        await page.getByLabel(tx.currentPassword).fill("not-the-password");
        await page.getByLabel(tx.newPassword, { exact: true }).fill("my brand new secret 1");
        await page.getByRole("button", { name: tx.changePassword }).click();
        const alert = page.getByRole("alert").filter({ hasText: tx.wrongPassword });
        // Password hashing is slow on a loaded machine: allow it time.
        await expect(alert).toBeFocused({ timeout: 20_000 });
        await expectAccessible(page);
        if (process.env.SCREENSHOTS)
          await page.screenshot({ path: `test-results/screens/account-password-error-${lang}.png`, fullPage: true });
        expect(await signedOut(otherPage, app)).toBe(false);

        await page.getByLabel(tx.currentPassword).fill(u.password);
        await page.getByLabel(tx.newPassword, { exact: true }).fill("my brand new secret 1");
        await page.getByRole("button", { name: tx.changePassword }).click();
        await expect(page.getByRole("status").filter({ hasText: tx.passwordChanged })).toBeVisible({ timeout: 20_000 });
        expect(await signedOut(otherPage, app)).toBe(true);
        expect(await signedOut(page, app)).toBe(false);
        await other.close();
      },
    );

    test("email change through the link mailed to the new address", async ({ page, app }) => {
      test.slow();
      const u = await signedInUser(app, page);
      const newEmail = `moved-${lang}-${Date.now()}@example.test`;
      await page.goto("/account");
      await waitForHydration(page);
      await page.getByLabel(tx.newEmail).fill(newEmail);
      await page.getByRole("button", { name: tx.changeEmail }).click();
      await expect(page.getByRole("status").filter({ hasText: tx.emailSent })).toBeVisible();
      const notice = await app.smtp.waitForMail((m) => m.to.includes(u.email));
      expect(notice.text).toContain(newEmail);
      const mail = await app.smtp.waitForMail((m) => m.to.includes(newEmail));
      const link = /(http:\/\/\S+\/user\/verify-email\?token=[\w.-]+)/.exec(mail.text)![1]!;
      await page.goto(link);
      await page.goto("/account");
      await expect(page.locator("#email-title + p")).toContainText(newEmail);
    });

    test("Download my data: a JSON file with the user's items and nobody else's", async ({ page, app }) => {
      const u = await signedInUser(app, page);
      const someone = await createUser(app.runtime, { name: "Someone Else" });
      const deps = depsOf(app.runtime);
      const item = { findFee: 100, prodType: "mobile" as const, contactInfo: "070-1", payment: "year" as const };
      const mine = await createItem(deps, u.id, { ...item, name: "My red bike", intent: "payLater" }, lang);
      const theirs = await createItem(deps, someone.id, { ...item, name: "Their bike", intent: "payLater" }, lang);
      await page.goto("/account");
      await waitForHydration(page);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: tx.download }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^hittad-data-\d{4}-\d{2}-\d{2}\.json$/);
      const text = fs.readFileSync((await download.path())!, "utf8");
      const data = JSON.parse(text) as { items: Array<{ id: string; name: string }>; profile: { email: string } };
      expect(data.profile.email).toBe(u.email);
      expect(data.items.map((i) => i.id)).toEqual([mine]);
      expect(text).not.toContain(theirs);
      expect(text).not.toContain(someone.email);
    });

    walkIn("sv", lang)(
      "a switched-off sticker as an anonymous finder sees it, switched on again; then the owner deletes the item after a confirmation and the finder's page is gone",
      async ({ page, app, browser }) => {
        test.slow();
        const u = await signedInUser(app, page);
        const id = await createItem(
          depsOf(app.runtime),
          u.id,
          {
            name: "Blue backpack",
            findFee: 100,
            prodType: "other",
            contactInfo: "Call 070-555 12 34",
            payment: "year",
            intent: "payLater",
          },
          lang,
        );
        await app.runtime.database.db
          .updateTable("products")
          .set({ payed: 1, paidUntil: Date.parse("2099-01-01T00:00:00Z") })
          .where("id", "=", id)
          .execute();
        const finderContext = await browser.newContext({ locale: tx.locale });
        await finderContext.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
        const finder = await finderContext.newPage();
        await finder.goto(`${app.server.url}/${id}`);
        await expect(finder.getByText("070-555 12 34")).toBeVisible();
        expect(await finder.locator("textarea").count()).toBeGreaterThan(0);

        // Switching off is managed on the owner's view of the item (decision 032).
        await page.goto(`/product/${id}`);
        await waitForHydration(page);
        await page.getByRole("button", { name: tx.switchOff }).click();
        await expect(page.getByText(tx.switchedOff)).toBeVisible();
        await finder.reload();
        await expect(finder.getByRole("heading", { name: tx.notActive })).toBeVisible();
        await expect(finder.getByText("070-555")).toHaveCount(0);
        await expect(finder.getByText("Blue backpack")).toHaveCount(0);
        // No relay: the finder's message form is gone with the contact info.
        await expect(finder.locator("textarea")).toHaveCount(0);

        await page.getByRole("button", { name: tx.switchOn }).click();
        await expect(page.getByRole("button", { name: tx.switchOff })).toBeVisible();
        await finder.reload();
        await expect(finder.getByText("070-555 12 34")).toBeVisible();

        // Delete the item: a confirmation page (the new screen: axe, widths, screenshots).
        await page.goto(`/product/edit/${id}`);
        await page.getByRole("link", { name: tx.deleteItem }).click();
        await page.waitForURL(`**/product/${id}/delete`);
        await expect(page.getByRole("heading", { level: 1, name: tx.deleteItemTitle })).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `item-delete-${lang}`);
        await waitForHydration(page);
        await page.getByRole("button", { name: tx.deleteItemSubmit }).click();
        await page.waitForURL("**/dashboard");
        await expect(page.getByText(tx.itemDeleted)).toBeVisible();
        expect((await finder.reload())?.status()).toBe(404);
        await finderContext.close();
      },
    );

    walkIn("en", lang)(
      "deleting the account ends signed out on / with a message; sign-in fails, item pages 404, mail arrives",
      async ({ page, app }) => {
        test.slow();
        const u = await signedInUser(app, page);
        const id = await createItem(
          depsOf(app.runtime),
          u.id,
          {
            name: "Keys",
            findFee: 100,
            prodType: "other",
            contactInfo: "070-2",
            payment: "year",
            intent: "payLater",
          },
          lang,
        );
        await page.goto("/account");
        await waitForHydration(page);
        await page.getByRole("link", { name: tx.deleteLink }).click();
        await page.waitForURL("**/account/delete");
        await expect(page.getByRole("heading", { level: 1, name: tx.deleteTitle })).toBeVisible();
        await expectAccessible(page);
        await atPhoneAndDesk(page, `account-delete-${lang}`);
        await waitForHydration(page);
        await page.getByLabel(tx.yourPassword).fill(u.password);
        await page.getByLabel(tx.confirm).check();
        await page.getByRole("button", { name: tx.deleteSubmit }).click();
        await page.waitForURL((url) => url.pathname === "/");
        await expect(page.getByRole("status").filter({ hasText: tx.deleted })).toBeVisible();
        if (process.env.SCREENSHOTS)
          await page.screenshot({ path: `test-results/screens/account-deleted-home-${lang}.png` });

        const mail = await app.smtp.waitForMail((m) => m.to.includes(u.email) && m.subject === tx.deletedSubject);
        expect(mail.subject).toBe(tx.deletedSubject);
        expect((await page.request.get(`/product/${id}`)).status()).toBe(404);
        expect((await page.request.get(`/${id}`)).status()).toBe(404);

        await page.goto("/login");
        await waitForPageReady(page);
        await page.getByLabel(tx.email).fill(u.email);
        await page.getByLabel(tx.password, { exact: true }).fill(u.password);
        await page.getByRole("button", { name: tx.signIn, exact: true }).click();
        await expect(page.getByRole("alert")).toHaveText(tx.wrong);
      },
    );
  });
}
