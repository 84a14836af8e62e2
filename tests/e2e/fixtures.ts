/**
 * Shared end-to-end fixtures. Every worker gets a fresh database and its own production
 * server; tests create users and sessions directly (tests/support/users.ts) and only the
 * sign-in tests click through sign-in. Any console error or page error fails the test.
 */
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { createTestDatabase, createTestRuntime, testEnv, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { createUser, type TestUser } from "../support/users";
import type { Runtime } from "../../app/server/runtime.server";

export interface WorkerApp {
  server: TestServer;
  runtime: Runtime;
  db: TestDatabase;
  env: Record<string, string>;
  /** The SMTP server the app sends its mail to. */
  smtp: TestSmtpServer;
}

interface TestFixtures {
  /** Sets ConsentApproved in the browser so the overlay does not block the test. */
  consent: void;
  /** A signed-in user (cookie already in the browser context). */
  user: TestUser;
  /** Fails the test on console errors and uncaught page errors. */
  failOnConsoleErrors: void;
  /**
   * Console errors a test provokes on purpose, matched against "<text> (<url>)", e.g. the
   * browser's own log line for an API call the test makes fail, and page errors, matched
   * against "page error: <message>". Set with test.use().
   */
  expectedConsoleErrors: RegExp[];
}

export const test = base.extend<TestFixtures, { app: WorkerApp }>({
  app: [
    async ({}, use, workerInfo) => {
      const db = await createTestDatabase(`e2e${workerInfo.workerIndex}`);
      const smtp = await startSmtpServer();
      const env = testEnv(db, { RATE_LIMIT_DISABLED: "1", SMTP_URL: smtp.url, MAIL_POLL_MS: "200" });
      const server = await startServer(env);
      const runtime = await createTestRuntime({ ...env, BASE_URL: server.url });
      await use({ server, runtime, db, env: { ...env, BASE_URL: server.url }, smtp });
      await server.stop();
      await runtime.database.close();
      await smtp.close();
      await db.drop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ app }, use) => {
    await use(app.server.url);
  },
  expectedConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const problems: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        // A 404/4xx document (e.g. 'Page not found') is logged by Chromium itself; expected.
        // So is a 4xx answer to the current page's data request (React Router's
        // `<path>.data`), e.g. a form action refusing bad input with 400/401/429.
        const loc = msg.location().url;
        if (
          /^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()) &&
          (loc === page.url() || isDataRequestFor(loc, page.url()))
        )
          return;
        if (expectedConsoleErrors.some((re) => re.test(`${msg.text()} (${loc})`))) return;
        problems.push(`console.error: ${msg.text()} (${loc})`);
      });
      page.on("pageerror", (err) => {
        if (expectedConsoleErrors.some((re) => re.test(`page error: ${err.message}`))) return;
        problems.push(`page error: ${err.message}`);
      });
      await use();
      expect(problems, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
  consent: async ({ context, app }, use) => {
    await context.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
    await use();
  },
  user: async ({ app, context }, use) => {
    const user = await createUser(app.runtime);
    await context.addCookies([{ ...user.sessionCookie, url: app.server.url }]);
    await use(user);
  },
});

export { expect };

/**
 * For a check that does not depend on the language (a redirect, a cookie, a lock-out, a
 * 404 status, a page without JavaScript): it runs in English only, and the Swedish run of
 * the same loop reports it skipped. The Swedish texts of these screens are checked by the
 * tests that stay in both languages and by the integration suite. CI has 25 minutes.
 */
export function englishOnly(lang: string) {
  return lang === "en" ? test : test.skip;
}

/**
 * The page at a phone's and a desk's width: nothing wider than the screen at either. With
 * SCREENSHOTS=1 each width is also saved under test-results/screens/ to look at (full-page
 * PNGs cost CI time and nobody looks at them there).
 */
export async function atPhoneAndDesk(page: Page, name: string) {
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
}

/**
 * For a long walk through one feature (half a minute or more of CI on a loaded machine):
 * it runs in `only`, and the other language's run of the same loop reports it skipped.
 * The walks alternate languages across files; every page is also walked on a phone in
 * both languages by first-use.spec.ts, and app/i18n/locales.test.ts keeps the two
 * languages' keys equal. CI has 25 minutes on 2 cores (decision 024).
 * E2E_ALL_LANGUAGES=1 walks both.
 */
export function walkIn(only: "en" | "sv", lang: string) {
  return lang === only || process.env.E2E_ALL_LANGUAGES ? test : test.skip;
}

/** Whether `url` is React Router's data request for the page at `pageUrl`. */
function isDataRequestFor(url: string, pageUrl: string) {
  try {
    const at = new URL(url);
    const here = new URL(pageUrl);
    const path = here.pathname === "/" ? "/_root" : here.pathname.replace(/\/$/, "");
    return at.origin === here.origin && at.pathname === `${path}.data`;
  } catch {
    return false;
  }
}

/** Waits until React has hydrated (clicks before that are lost). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
}

/** The lean finder page (no React, docs/decisions/020): until its one script has run. */
export async function waitForPageScript(page: Page) {
  await page.locator("html[data-page-script]").waitFor({ state: "attached" });
}

/** Either of the two: React has hydrated, or a lean page's script has run (decision 020). */
export async function waitForPageReady(page: Page) {
  await page
    .locator("html[data-hydrated], html[data-page-script]")
    .first()
    .waitFor({ state: "attached", timeout: 15_000 });
}

/** axe: no serious or critical violations on the current page. */
/** `soft`: record the failure and go on (a walk through many pages); `label` names the page. */
export async function expectAccessible(page: Page, opts: { soft?: boolean; label?: string } = {}) {
  // Judge the page at rest: the pointer off whatever was just clicked (a hovered outline
  // button fades to its filled colours) and no colour transition half-way.
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  (opts.soft ? expect.soft : expect)(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe serious/critical violations${opts.label ? ` on ${opts.label}` : ""}`,
  ).toEqual([]);
}
