/**
 * The pages whose address is a secret — the finder's /m/{token}, a trusted contact's
 * /t/c/, /t/r/ and /t/s/, and the billing-email link — keep their address from other
 * sites. Browsers then post their forms with `Origin: null` when the page says
 * `no-referrer`, and the same-origin check refused them with 403 (decision 050). Each page
 * here, with JavaScript off, posts every form it has: the cookie banner, and its own.
 */
import type { Browser, Page } from "@playwright/test";
import { createItem } from "../../app/server/items/items.service.server";
import { depsOf } from "../support/deps";
import { createTestOrganisation } from "../support/service-fixtures";
import { createUser, type TestUser } from "../support/users";
import { expect, test, type WorkerApp } from "./fixtures";

const L = {
  en: {
    locale: "en-GB",
    accept: "Accept our cookies to continue",
    message: "Your message",
    send: "Send message",
    sent: "Your message has been sent to the owner.",
    confirm: "Confirm",
    confirmed: "You are now a trusted contact",
    answer: "Your answer to the finder",
    sendAnswer: "Send answer",
    answered: "Your answer is sent to the finder.",
    stop: "Stop messages",
    stopped: "Hittad sends nothing more to this email address",
    billingConfirmed: "is confirmed",
  },
  sv: {
    locale: "sv-SE",
    accept: "Acceptera våra cookies för att fortsätta",
    message: "Ditt meddelande",
    send: "Skicka meddelande",
    sent: "Ditt meddelande har skickats till ägaren.",
    confirm: "Bekräfta",
    confirmed: "Nu är du betrodd kontakt",
    answer: "Ditt svar till upphittaren",
    sendAnswer: "Skicka svar",
    answered: "Ditt svar är skickat till upphittaren.",
    stop: "Sluta få meddelanden",
    stopped: "Hittad skickar inget mer till den här e-postadressen",
    billingConfirmed: "är bekräftad",
  },
} as const;
type Lang = keyof typeof L;

/** A phone with JavaScript off, in the language's locale. */
async function noScriptPhone(browser: Browser, app: WorkerApp, lang: Lang): Promise<Page> {
  const context = await browser.newContext({
    baseURL: app.server.url,
    locale: L[lang].locale,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
  });
  return context.newPage();
}

/** The cookie banner's accept button posts /consent and comes back to the same page. */
async function acceptCookies(page: Page, lang: Lang) {
  const here = new URL(page.url()).pathname;
  await page.getByRole("button", { name: L[lang].accept }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe(here);
}

async function paidItem(app: WorkerApp, ownerId: string, name: string) {
  const id = await createItem(
    depsOf(app.runtime),
    ownerId,
    { name, findFee: 50, prodType: "other", contactInfo: "Ring 070-1", payment: "year", intent: "payLater" },
    "en",
  );
  await app.runtime.database.db.updateTable("products").set({ payed: 1 }).where("id", "=", id).execute();
  return id;
}

/**
 * The steps before the page under test, posted as the server's own pages would (the
 * services that send mail translate through the build's resources, which only the server has).
 */
async function post(app: WorkerApp, path: string, fields: Record<string, string>, cookie = "") {
  const res = await fetch(`${app.server.url}${path}`, {
    method: "POST",
    headers: { Origin: app.server.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  expect(res.status, `POST ${path}`).toBeLessThan(400);
  return res;
}

async function finderWrites(app: WorkerApp, itemId: string, text: string) {
  const res = await post(app, `/${itemId}`, { message: text });
  const token = /^\/m\/([A-Za-z0-9_-]{43})\?sent=1$/.exec(res.headers.get("location") ?? "")![1]!;
  const { id } = await app.runtime.database.db
    .selectFrom("conversations")
    .select("id")
    .where("finderToken", "=", token)
    .executeTakeFirstOrThrow();
  return { token, conversationId: id };
}

/** The path of the newest link starting with `prefix` in the mails queued to `to`. */
async function linkIn(app: WorkerApp, to: string, prefix: string): Promise<string> {
  const mails = await app.runtime.database.db
    .selectFrom("mail_outbox")
    .select("text")
    .where("to", "=", to)
    .orderBy("createdAt", "desc")
    .execute();
  for (const m of mails) {
    const path = new RegExp(`https?://[^/\\s]+(${prefix}[A-Za-z0-9_-]+)`).exec(m.text)?.[1];
    if (path) return path;
  }
  throw new Error(`no ${prefix} link in the mails to ${to}`);
}

/** An owner with a paid item and a trusted contact by mail, invited (not yet confirmed). */
async function ownerWithContact(app: WorkerApp, lang: Lang) {
  const owner = await createUser(app.runtime, { name: "Olle Owner", language: lang });
  const item = await paidItem(app, owner.id, `Red phone ${lang}`);
  const email = `kim-${lang}-${Date.now()}@example.test`;
  await post(app, "/account/alerts", { intent: "addContact", name: "Kim", email, phone: "" }, owner.cookie);
  return { owner, item, email };
}

async function confirmedContact(app: WorkerApp, lang: Lang): Promise<{ owner: TestUser; item: string; email: string }> {
  const setup = await ownerWithContact(app, lang);
  await post(app, await linkIn(app, setup.email, "/t/c/"), {});
  return setup;
}

for (const lang of ["en", "sv"] as const) {
  const s = L[lang];

  test(`the finder's private link (${lang}): without JavaScript the cookie banner and a second message post`, async ({
    browser,
    app,
  }) => {
    const owner = await createUser(app.runtime, { language: lang });
    const item = await paidItem(app, owner.id, `Green umbrella ${lang}`);
    const { token, conversationId } = await finderWrites(app, item, "Found it by the door");
    const page = await noScriptPhone(browser, app, lang);
    const res = await page.goto(`/m/${token}`);
    expect(res!.headers()["referrer-policy"]?.split(/[,\n]/).at(-1)?.trim()).toBe("same-origin");
    await acceptCookies(page, lang);
    await page.getByLabel(s.message).fill(`Still here (${lang}, no script)`);
    await page.getByRole("button", { name: s.send }).click();
    await expect(page.getByRole("status")).toHaveText(s.sent);
    await expect(page).toHaveURL(new RegExp(`/m/${token}\\?sent=1$`));
    const texts = await app.runtime.database.db
      .selectFrom("conversation_messages")
      .select("text")
      .where("conversationId", "=", conversationId)
      .execute();
    expect(texts.map((m) => m.text)).toContain(`Still here (${lang}, no script)`);
    await page.context().close();
  });

  test(`a trusted contact's confirmation link (${lang}): without JavaScript the cookie banner and Confirm post`, async ({
    browser,
    app,
  }) => {
    const { email } = await ownerWithContact(app, lang);
    const page = await noScriptPhone(browser, app, lang);
    await page.goto(await linkIn(app, email, "/t/c/"));
    await acceptCookies(page, lang);
    await page.getByRole("button", { name: s.confirm, exact: true }).click();
    await expect(page.getByRole("status")).toContainText(s.confirmed);
    await page.context().close();
  });

  test(`a trusted contact's reply link (${lang}): without JavaScript the cookie banner and the answer post`, async ({
    browser,
    app,
  }) => {
    const { item, email } = await confirmedContact(app, lang);
    const { conversationId } = await finderWrites(app, item, "I have your red phone");
    await expect.poll(() => linkIn(app, email, "/t/r/").catch(() => "")).toMatch(/^\/t\/r\//);
    const page = await noScriptPhone(browser, app, lang);
    await page.goto(await linkIn(app, email, "/t/r/"));
    await acceptCookies(page, lang);
    await page.getByLabel(s.answer).fill(`Kim here (${lang}): at six?`);
    await page.getByRole("button", { name: s.sendAnswer }).click();
    await expect(page.getByRole("status")).toHaveText(s.answered);
    const texts = await app.runtime.database.db
      .selectFrom("conversation_messages")
      .select("text")
      .where("conversationId", "=", conversationId)
      .execute();
    expect(texts.map((m) => m.text)).toContain(`Kim here (${lang}): at six?`);
    await page.context().close();
  });

  test(`a trusted contact's stop link (${lang}): without JavaScript the cookie banner and Stop post`, async ({
    browser,
    app,
  }) => {
    const { item, email } = await confirmedContact(app, lang);
    await finderWrites(app, item, "Found it");
    await expect.poll(() => linkIn(app, email, "/t/s/").catch(() => "")).toMatch(/^\/t\/s\//);
    const page = await noScriptPhone(browser, app, lang);
    await page.goto(await linkIn(app, email, "/t/s/"));
    await acceptCookies(page, lang);
    await page.getByRole("button", { name: s.stop }).click();
    await expect(page.getByRole("status")).toContainText(s.stopped);
    await page.context().close();
  });

  test(`the billing-email link (${lang}): opened without JavaScript it confirms, and its cookie banner posts`, async ({
    browser,
    app,
  }) => {
    const admin = await createUser(app.runtime, { language: lang });
    const organisationId = await createTestOrganisation(depsOf(app.runtime), admin, { billingConfirmed: false });
    await post(app, `/organisations/${organisationId}`, { intent: "confirmBilling" }, admin.cookie);
    const { billingEmail } = await app.runtime.database.db
      .selectFrom("organisations")
      .select("billingEmail")
      .where("id", "=", organisationId)
      .executeTakeFirstOrThrow();
    const page = await noScriptPhone(browser, app, lang);
    const res = await page.goto(await linkIn(app, billingEmail, "/organisations/billing-email/"));
    expect(res!.headers()["referrer-policy"]?.split(/[,\n]/).at(-1)?.trim()).toBe("same-origin");
    await expect(page.getByRole("status")).toContainText(s.billingConfirmed);
    await acceptCookies(page, lang);
    await page.context().close();
  });
}
