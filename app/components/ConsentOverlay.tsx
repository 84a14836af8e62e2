import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/react";
import { useFetcher, useLocation } from "react-router";
import type { Lang } from "~/i18n/config";
import { LanguageLinks } from "./LanguageLinks";

/**
 * The spec's cookie-consent overlay. Rendered on the server so it shows before any
 * JavaScript; the rest of the page is inert behind it. Accepting is a form POST that
 * works without JavaScript (redirect back) and in place with it.
 */
export function ConsentOverlay({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    buttonRef.current?.focus();
    const dialog = dialogRef.current;
    if (!dialog) return;
    // Keep keyboard focus inside the dialog (the page behind is inert as well).
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Tab" || !dialog) return;
      const focusable = Array.from(dialog.querySelectorAll<HTMLElement>("a[href], button:not([disabled])"));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    dialog.addEventListener("keydown", onKeyDown);
    return () => dialog.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <div className="consent-backdrop">
      <div
        ref={dialogRef}
        className="consent-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="consent-title"
        aria-describedby="consent-text"
      >
        <h2 id="consent-title" className="h4">
          {t("consent.title")}
        </h2>
        <div id="consent-text">
          <p>{t("consent.language", { language: t(`consent.languageName.${lang}`) })}</p>
          <p>{t("consent.thirdParty")}</p>
        </div>
        <fetcher.Form method="post" action="/consent">
          <input type="hidden" name="redirectTo" value={location.pathname + location.search + location.hash} />
          {/* autoFocus: the focus is here from the first paint, without JavaScript too. */}
          <button ref={buttonRef} type="submit" className="btn btn-primary btn-lg w-100" autoFocus>
            {t("consent.accept")}
          </button>
        </fetcher.Form>
        <div className="consent-language">
          <span className="visually-hidden">{t("layout.footer.language")}</span>
          <LanguageLinks className="list-inline mb-0 mt-3 text-end small" itemClassName="list-inline-item" />
        </div>
      </div>
    </div>
  );
}
