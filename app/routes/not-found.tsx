import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { data } from "react-router";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: [], lean: leanWhenAnonymous };

/** Any path no other route claims: the spec's 'Page not found' with HTTP 404. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
