import type { Lang } from "./config";
import { mergeAreas, registerResources, type Translation } from "./i18n";
// getT on the server translates with i18next (decision 025).
import "./i18next.server";

const en = mergeAreas(import.meta.glob("../locales/en/*.json", { eager: true }));
const sv = mergeAreas(import.meta.glob("../locales/sv/*.json", { eager: true }));

export const allResources: Record<Lang, Translation> = { en, sv };
registerResources("en", en);
registerResources("sv", sv);
