import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { NonceContext } from "./components/nonce";
import { isLang, DEFAULT_LANG } from "./i18n/config";
import { createBrowserI18n, I18nProvider } from "./i18n/react";
import { loadLanguage, setClientI18n } from "./i18n/load.client";

// Start in the language the server rendered, or hydration would not match.
const htmlLang = document.documentElement.lang;
const lang = isLang(htmlLang) ? htmlLang : DEFAULT_LANG;
// Only the translation areas the page declares (root Layout's data-i18n), when it does;
// else all but the few only their own pages use.
const areas = document.documentElement.dataset.i18n?.split(" ").filter(Boolean);
const translation = await loadLanguage(lang, areas?.length ? areas : undefined);
const i18n = createBrowserI18n(lang, { [lang]: translation });
setClientI18n(i18n);

startTransition(() => {
  hydrateRoot(
    document,
    // Browsers blank nonce attributes after load (nonce=""); rendering the same empty
    // value keeps React from reporting a hydration mismatch on every script tag.
    <NonceContext value="">
      <I18nProvider i18n={i18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nProvider>
    </NonceContext>,
  );
});
