import { useTranslation } from "~/i18n/react";
import { useLocation, useRevalidator } from "react-router";
import type { Lang } from "~/i18n/config";
import { loadLanguage } from "~/i18n/load.client";

/** href of the language switch: works as a plain link without JavaScript. */
export function languageHref(lang: Lang, path: string) {
  return `/language/${lang}?redirectTo=${encodeURIComponent(path)}`;
}

/**
 * The spec's Swedish/English links. With JavaScript the switch happens in place (no
 * reload) and the page scrolls smoothly to the top; without, the link sets the cookie
 * and comes back to the same page.
 */
export function LanguageLinks({ className, itemClassName }: { className?: string; itemClassName?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const revalidator = useRevalidator();
  const here = location.pathname + location.search + location.hash;

  async function switchTo(event: React.MouseEvent<HTMLAnchorElement>, lang: Lang) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The cookie comes with the redirect; not following it saves downloading the page.
    const [, translation] = await Promise.all([
      fetch(languageHref(lang, here), { redirect: "manual", credentials: "same-origin" }),
      loadLanguage(lang),
    ]);
    i18n.addResourceBundle(lang, "translation", translation, true, true);
    await i18n.changeLanguage(lang);
    await revalidator.revalidate();
    window.scrollTo({ top: 0, behavior: "smooth" });
  }

  return (
    <ul className={className}>
      <li className={itemClassName}>
        {/* Each language in its own name (decision 018), marked up in that language for screen readers. */}
        <a href={languageHref("sv", here)} hrefLang="sv" lang="sv" onClick={(e) => void switchTo(e, "sv")}>
          {t("layout.swedish")}
        </a>
      </li>
      <li className={itemClassName}>
        <a href={languageHref("en", here)} hrefLang="en" lang="en" onClick={(e) => void switchTo(e, "en")}>
          {t("layout.english")}
        </a>
      </li>
    </ul>
  );
}
