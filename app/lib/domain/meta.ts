import { DEFAULT_LANG, isLang } from "~/i18n/config";
import { getT } from "~/i18n/i18n";
import { BRAND } from "./brand";

type Matches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

/** The page language from the root loader's data, as meta functions see it. */
export function langFromMatches(matches: Matches) {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { lang?: unknown } | undefined;
  return isLang(root?.lang) ? root.lang : DEFAULT_LANG;
}

/** Translated <title> and description from `<area>.meta.title` / `.meta.description`. */
export function pageMeta(matches: Matches, area: string) {
  const t = getT(langFromMatches(matches));
  return [
    { title: `${t(`${area}.meta.title`)} | ${BRAND}` },
    { name: "description", content: t(`${area}.meta.description`) },
  ];
}
