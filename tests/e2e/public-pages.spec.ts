import type { Page } from "@playwright/test";
import { expect, expectAccessible, test, waitForHydration, waitForPageReady, englishOnly } from "./fixtures";

/** What each language must show: the spec's prices per currency, FAQ topics, terms points. */
const COPY = {
  en: {
    locale: "en-US",
    titles: {
      "/": "Get your lost things back",
      "/companies": "Hittad for companies",
      "/support": "Support",
      "/terms": "Terms and conditions",
      "/cookies": "Cookie policy",
    },
    cards: {
      Single: ["1 QR code", "€30", "or €3 a month*", "Less than €0.10 a day", "Choose Single"],
      Triple: ["3 QR codes", "€60", "or €6 a month*", "Less than €0.20 a day", "Choose Triple"],
    },
    minimum: "Minimum term: 6 months",
    howItWorks: ["Register your item", "Stick the QR code on it", "The finder scans it", "You get it back"],
    contact: "Contact us",
    faq: [
      "Why would anyone return my things?",
      "How does Hittad work?",
      "Should I put my own phone number on my phone?",
      "How do I scan a QR code?",
      "I already use Find My iPhone or Find My Device. Do I need Hittad?",
      "Isn't AppleCare+ with theft and loss cover enough?",
    ],
    applecarePrice: "less than €0.10 a day",
    help: "Want to help?",
    terms: [
      "at least 18 years old",
      "must not:",
      "limited to the amount you have paid us, or 100 USD if you have not bought anything",
      "at least 30 days before it takes effect",
      "governed by Swedish law",
      "the English text prevails",
    ],
    cookies: ["365 days", "30 days if you tick “Remember me”", "Stripe Checkout", "ALTCHA"],
  },
  sv: {
    locale: "sv-SE",
    titles: {
      "/": "Få tillbaka det du tappat bort",
      "/companies": "Hittad för företag",
      "/support": "Support",
      "/terms": "Villkor",
      "/cookies": "Cookiepolicy",
    },
    cards: {
      Single: ["1 QR-kod", "300 kr", "eller 30 kr i månaden*", "Mindre än 1 kr om dagen", "Välj Single"],
      Triple: ["3 QR-koder", "600 kr", "eller 60 kr i månaden*", "Mindre än 2 kr om dagen", "Välj Triple"],
    },
    minimum: "Minsta bindningstid är 6 månader",
    howItWorks: ["Registrera din sak", "Sätt fast QR-koden", "Upphittaren skannar koden", "Du får tillbaka den"],
    contact: "Kontakta oss",
    faq: [
      "Varför skulle någon lämna tillbaka mina saker?",
      "Hur fungerar Hittad?",
      "Ska jag skriva mitt eget telefonnummer på mobilen?",
      "Hur skannar jag en QR-kod?",
      "Jag använder redan Hitta min iPhone eller Hitta min enhet. Behöver jag Hittad?",
      "Räcker det inte med AppleCare+ med stöld- och förlustskydd?",
    ],
    applecarePrice: "mindre än 1 kr om dagen",
    help: "Vill du hjälpa till?",
    terms: [
      "ha fyllt 18 år",
      "får inte:",
      "begränsat till det belopp du har betalat till oss, eller 100 USD om du inte har köpt något",
      "minst 30 dagar innan den börjar gälla",
      "Svensk lag gäller",
      "gäller den engelska texten",
    ],
    cookies: ["365 dagar", "30 dagar om du kryssar i ”Kom ihåg mig”", "Stripe Checkout", "ALTCHA"],
  },
} as const;

/** One h1, first; no heading skips a level on the way down (h2 → h4). */
async function expectHeadingOrder(page: Page) {
  const levels = await page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((hs) => hs.filter((h) => !h.closest("[hidden]")).map((h) => Number(h.tagName.slice(1))));
  expect(
    levels.filter((l) => l === 1),
    "exactly one h1",
  ).toHaveLength(1);
  expect(levels[0], "the h1 comes first").toBe(1);
  for (let i = 1; i < levels.length; i++) {
    expect(levels[i]!, `heading ${i} (h${levels[i]}) after h${levels[i - 1]}`).toBeLessThanOrEqual(levels[i - 1]! + 1);
  }
}

async function pageFacts(page: Page) {
  return {
    title: await page.title(),
    description: await page.locator('meta[name="description"]').getAttribute("content"),
  };
}

for (const [lang, copy] of Object.entries(COPY)) {
  test.describe(`public pages in ${lang}`, () => {
    test.use({ locale: copy.locale });

    test("every public page has its own translated title and description, one h1 and ordered headings", async ({
      page,
      consent,
    }) => {
      void consent;
      const seen = new Map<string, string>();
      const descriptions = new Set<string>();
      for (const [path, h1] of Object.entries(copy.titles)) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
        await expect(page.getByRole("main")).toBeVisible();
        await expect(page.getByRole("banner")).toBeVisible();
        await expect(page.getByRole("contentinfo")).toBeVisible();
        await expectHeadingOrder(page);
        const { title, description } = await pageFacts(page);
        expect(title, `${path} title`).toMatch(/ \| Hittad$/);
        expect(seen.get(title), `${path} has the same title as ${seen.get(title)}`).toBeUndefined();
        seen.set(title, path);
        expect(description, `${path} description`).toBeTruthy();
        expect(descriptions.has(description!), `${path} description is unique`).toBe(false);
        descriptions.add(description!);
        // axe runs on each of these pages in the page's own test below.
      }
    });

    test("home shows how it works and both pricing cards in the visitor's currency, linking to registration", async ({
      page,
      consent,
    }) => {
      void consent;
      await page.goto("/");
      const steps = page.getByRole("region", { name: lang === "en" ? "How it works" : "Så funkar det" });
      await expect(steps.getByRole("heading", { level: 3 })).toHaveText([...copy.howItWorks]);
      for (const [name, facts] of Object.entries(copy.cards)) {
        const card = page.getByRole("article", { name });
        await expect(card.getByRole("heading", { level: 3 })).toHaveText(name);
        for (const fact of facts) await expect(card).toContainText(fact);
        // The choice travels to registration (decision 018).
        const pkg = name === "Single" ? "single" : "tripple";
        await expect(card.getByRole("link", { name: facts[4] })).toHaveAttribute(
          "href",
          `/user/register?package=${pkg}`,
        );
      }
      // The other currency never shows.
      await expect(page.getByRole("main")).not.toContainText(lang === "en" ? " kr" : "€");
      await expect(page.getByRole("main")).toContainText(copy.minimum);
      await expectAccessible(page);
    });

    englishOnly(lang)(
      "companies page pitches to companies and calls to action to the contact form",
      async ({ page, consent }) => {
        void consent;
        await page.goto("/companies");
        const main = page.getByRole("main");
        await expect(main.getByRole("heading", { level: 3 })).toHaveCount(3);
        const links = main.getByRole("link", { name: copy.contact });
        await expect(links.first()).toHaveAttribute("href", "/contact");
        await expectAccessible(page);
      },
    );

    englishOnly(lang)(
      "support lists the spec's FAQ topics as disclosures and has the 'Want to help?' anchor",
      async ({ page, consent }) => {
        void consent;
        await page.goto("/support");
        const questions = page.locator("main details > summary");
        await expect(questions).toHaveText([...copy.faq]);
        // Closed until opened; opening works by keyboard too.
        const applecare = page.locator("main details").last();
        await expect(applecare.locator("p")).toBeHidden();
        // A lean page for visitors (no framework JavaScript): <details> opens by itself.
        await waitForPageReady(page);
        await questions.last().focus();
        await page.keyboard.press("Enter");
        await expect(applecare.locator("p")).toBeVisible();
        await expect(applecare).toContainText(copy.applecarePrice);
        await expectAccessible(page);

        // The footer's 'Want to help?' link lands on the section.
        await page.getByRole("contentinfo").getByRole("link", { name: copy.help }).click();
        await expect(page).toHaveURL(/\/support#help$/);
        const help = page.locator("#help");
        await expect(help.getByRole("heading", { level: 2 })).toHaveText(copy.help);
        await expect(help).toBeInViewport();
      },
    );

    englishOnly(lang)("/support#help opens at the 'Want to help?' section", async ({ page, consent }) => {
      void consent;
      await page.setViewportSize({ width: 390, height: 700 });
      await page.goto("/support#help");
      await expect(page.getByRole("heading", { name: copy.help })).toBeInViewport();
    });

    englishOnly(lang)("terms show the date 2022-04-15 and every point of the spec", async ({ page, consent }) => {
      void consent;
      await page.goto("/terms");
      await expect(page.locator("main time")).toHaveAttribute("datetime", "2022-04-15");
      await expect(page.locator("main time")).toHaveText("2022-04-15");
      const main = page.getByRole("main");
      for (const point of copy.terms) await expect(main).toContainText(point);
      await expect(main.getByRole("listitem")).toHaveCount(5);
      await expectAccessible(page);
    });

    englishOnly(lang)(
      "cookie policy names the cookies, their purpose and lifetime, and Stripe's and the captcha's",
      async ({ page, consent }) => {
        void consent;
        await page.goto("/cookies");
        const table = page.getByRole("table");
        await expect(table.getByRole("rowheader")).toHaveText([
          "ConsentApproved",
          "lang",
          "hittad.session_token",
          "hittad.dont_remember",
          "hittad.state",
          "hittad.return_to",
          "hittad.package",
        ]);
        for (const fact of copy.cookies) await expect(page.getByRole("main")).toContainText(fact);
        await expectAccessible(page);
      },
    );
  });
}

test.describe("cookie policy matches the product", () => {
  test.use({ locale: "en-US" });

  test("every cookie a signed-in visitor who accepted cookies and chose a language holds is listed", async ({
    page,
    context,
    user,
  }) => {
    void user;
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Accept our cookies to continue" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.goto("/language/sv?redirectTo=/cookies");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cookiepolicy");
    const listed = await page.getByRole("table").getByRole("rowheader").allTextContents();
    const held = (await context.cookies()).map((c) => c.name);
    expect(held).toEqual(expect.arrayContaining(["ConsentApproved", "lang", "hittad.session_token"]));
    for (const name of held) expect(listed, `cookie ${name} is in the policy`).toContain(name);
  });
});

test.describe("without JavaScript", () => {
  test("the FAQ opens and the pricing shows without JavaScript", async ({ browser, app }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: "sv-SE", baseURL: app.server.url });
    await context.addCookies([{ name: "ConsentApproved", value: "true", url: app.server.url }]);
    const page = await context.newPage();
    await page.goto("/support");
    const first = page.locator("main details").first();
    await first.locator("summary").click();
    await expect(first.locator("p")).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("article", { name: "Triple" })).toContainText("600 kr");
    await context.close();
  });
});
