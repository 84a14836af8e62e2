import type { Lang } from "./config";
import { mergeAreas, registerResources, type Translation } from "./i18n";
// getT on the server translates with i18next (decision 025).
import "./i18next.server";

/**
 * The server's resources: the browser areas with the server-only texts merged into the
 * same keys. A key in both is a bug (app/i18n/locales.test.ts also checks it): it throws
 * rather than letting one text win silently.
 */
export function mergeServerAreas(browser: Translation, server: Translation): Translation {
  const merge = (into: Record<string, unknown>, from: Record<string, unknown>, at: string) => {
    for (const [k, v] of Object.entries(from)) {
      const there = into[k];
      if (there === undefined) into[k] = v;
      else if (typeof there === "object" && there && typeof v === "object" && v) {
        into[k] = merge({ ...(there as Record<string, unknown>) }, v as Record<string, unknown>, `${at}${k}.`);
      } else throw new Error(`translation key ${at}${k} is in both a browser and a server-only locale file`);
    }
    return into;
  };
  return merge({ ...browser }, server, "");
}

// locales/<lang>/server/<area>.json: texts only the server sends (mails, the receipt mail),
// merged into the same keys; the browser's glob (load.client.ts) never sees them (decision 020).
const en = mergeServerAreas(
  mergeAreas(import.meta.glob("../locales/en/*.json", { eager: true })),
  mergeAreas(import.meta.glob("../locales/en/server/*.json", { eager: true })),
);
const sv = mergeServerAreas(
  mergeAreas(import.meta.glob("../locales/sv/*.json", { eager: true })),
  mergeAreas(import.meta.glob("../locales/sv/server/*.json", { eager: true })),
);

export const allResources: Record<Lang, Translation> = { en, sv };
registerResources("en", en);
registerResources("sv", sv);
