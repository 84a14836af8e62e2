import fs from "node:fs";
import path from "node:path";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, Trans as I18nextTrans, useTranslation as useI18nextTranslation } from "react-i18next";
import { Link, MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { LANGUAGES, type Lang } from "./config";
import { createI18n, serverI18n } from "./i18next.server";
import { createBrowserI18n, I18nProvider, Trans, useTranslation, type Translation } from "./react";

// Trans and useTranslation in the browser (decision 025) render what react-i18next renders
// over i18next, for every place the app uses Trans.

const dir = path.resolve(import.meta.dirname, "../locales");
const resources = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    Object.fromEntries(
      fs
        .readdirSync(path.join(dir, lang))
        .filter((f) => f.endsWith(".json"))
        .map((f) => [f.replace(/\.json$/, ""), JSON.parse(fs.readFileSync(path.join(dir, lang, f), "utf8"))]),
    ),
  ]),
) as Record<Lang, Translation>;

/** The app's Trans usages, with the components they pass (app/components, app/routes). */
const USAGES: Record<string, Record<string, ReactElement>> = {
  "auth.register.privacy": { a: <Link to="/privacy" /> },
  "privacy.collect.visitors.items.cookies": { a: <Link to="/cookies" /> },
  "privacy.complain.text": { a: <a href="https://www.imy.se/" rel="noopener" /> },
  "privacy.controller.contact": { a: <Link to="/contact" /> },
  "privacy.rights.how": { a: <Link to="/account" /> },
  "common.checkoutTerms.terms": { a: <a href="/terms" target="_blank" rel="noopener" /> },
  "support.lead": { a: <Link to="/contact" /> },
  "support.help.contact": { a: <Link to="/contact" /> },
  "terms.contact.text": { a: <Link to="/contact" /> },
};

function i18nextMarkup(lang: Lang, node: ReactElement) {
  const instance = createI18n(lang, { [lang]: resources[lang] });
  return renderToStaticMarkup(
    <MemoryRouter>
      <I18nextProvider i18n={instance}>{node}</I18nextProvider>
    </MemoryRouter>,
  );
}

function ownMarkup(lang: Lang, node: ReactElement, server = false) {
  const i18n = server
    ? serverI18n(createI18n(lang, { [lang]: resources[lang] }))
    : createBrowserI18n(lang, { [lang]: resources[lang] });
  return renderToStaticMarkup(
    <MemoryRouter>
      <I18nProvider i18n={i18n}>{node}</I18nProvider>
    </MemoryRouter>,
  );
}

describe("Trans renders react-i18next's markup", () => {
  it("the test covers every Trans in the app", () => {
    const used = new Set<string>();
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx$/.test(e.name) && !e.name.endsWith(".test.tsx"))
          for (const [, key = ""] of fs.readFileSync(p, "utf8").matchAll(/<Trans\s[^>]*?i18nKey="([^"]+)"/g))
            used.add(key);
      }
    };
    walk(path.resolve(import.meta.dirname, ".."));
    expect([...used].sort()).toEqual(Object.keys(USAGES).sort());
  });

  for (const lang of LANGUAGES) {
    for (const [key, components] of Object.entries(USAGES)) {
      it(`${lang}: ${key}, in the browser and on the server`, () => {
        const want = i18nextMarkup(lang, <I18nextTrans i18nKey={key} components={components} />);
        expect(want).toMatch(/^[^<]+<a href="[^"]+"[^>]*>[^<]+<\/a>[^<]*$/);
        expect(ownMarkup(lang, <Trans i18nKey={key} components={components} />)).toBe(want);
        expect(ownMarkup(lang, <Trans i18nKey={key} components={components} />, true)).toBe(want);
      });
    }
  }

  it("entities, a text after the link and a missing key as react-i18next", () => {
    const made = { t: { amp: "A &amp; B &lt;<a>x &quot;y&quot;</a>&nbsp;z", end: "<a>only</a>" } };
    const a = { a: <a href="/x" /> };
    for (const key of ["t.amp", "t.end", "t.missing"]) {
      const i18next = renderToStaticMarkup(
        <I18nextProvider i18n={createI18n("en", { en: made })}>
          <I18nextTrans i18nKey={key} components={a} />
        </I18nextProvider>,
      );
      const own = renderToStaticMarkup(
        <I18nProvider i18n={createBrowserI18n("en", { en: made })}>
          <Trans i18nKey={key} components={a} />
        </I18nProvider>,
      );
      expect(own, key).toBe(i18next);
    }
  });
});

describe("useTranslation", () => {
  function Probe({ name }: { name: string }) {
    const { t, i18n } = useTranslation();
    return (
      <p lang={i18n.language}>
        {t("layout.skipToContent")} {t("common.counter", { count: 2 })} {t("dashboard.items.deactivateLabel", { name })}
      </p>
    );
  }
  function I18nextProbe({ name }: { name: string }) {
    const { t, i18n } = useI18nextTranslation();
    return (
      <p lang={i18n.language}>
        {t("layout.skipToContent")} {t("common.counter", { count: 2 })} {t("dashboard.items.deactivateLabel", { name })}
      </p>
    );
  }

  for (const lang of LANGUAGES) {
    it(`${lang}: renders what react-i18next's useTranslation renders`, () => {
      const want = i18nextMarkup(lang, <I18nextProbe name="<b>Väska</b>" />);
      expect(want).toContain("&lt;b&gt;Väska&lt;/b&gt;");
      expect(ownMarkup(lang, <Probe name="<b>Väska</b>" />)).toBe(want);
      expect(ownMarkup(lang, <Probe name="<b>Väska</b>" />, true)).toBe(want);
    });
  }

  it("a language switch in the browser translates with the added language", async () => {
    const i18n = createBrowserI18n("en", { en: resources.en });
    const before = i18n.t;
    i18n.addResourceBundle("sv", "translation", resources.sv, true, true);
    let notified = 0;
    const stop = i18n.subscribe(() => notified++);
    await i18n.changeLanguage("sv");
    stop();
    expect(notified).toBe(1);
    expect(i18n.language).toBe("sv");
    expect(i18n.t).not.toBe(before); // a new t, so components using it render again
    expect(i18n.t("layout.skipToContent")).toBe(createI18n("sv", { sv: resources.sv }).t("layout.skipToContent"));
    expect(i18n.t("layout.skipToContent")).not.toBe(before("layout.skipToContent"));
  });

  it("areas added later are merged into the language, earlier ones kept", () => {
    const { layout, errors } = resources.en;
    const i18n = createBrowserI18n("en", { en: { layout } });
    expect(i18n.t("errors.notFound.title")).toBe("errors.notFound.title");
    i18n.addResourceBundle("en", "translation", { errors }, true, true);
    expect(i18n.t("errors.notFound.title")).not.toBe("errors.notFound.title");
    expect(i18n.t("layout.skipToContent")).not.toBe("layout.skipToContent");
  });
});
