import { useTranslation } from "~/i18n/react";
import { DEFAULT_LANG, isLang, type Lang } from "~/i18n/config";

/**
 * The page's language, the same on the server and in the browser: the translator is started
 * in the root loader's language on both sides (app/i18n), so its language is the one to read.
 */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
}
