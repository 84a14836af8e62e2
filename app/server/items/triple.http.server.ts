/**
 * The Triple's three items on one page (decision 038): `/product/register?package=tripple`
 * shows three blocks whose fields end in `_1`, `_2`, `_3`; this reads and answers their POST.
 */
import { data, redirect } from "react-router";
import type { Lang } from "~/i18n/config";
import { formValues, type ProductFormErrors, type ProductFormValues } from "~/lib/forms/product-form";
import { getDeps } from "../deps.server";
import { activeScopeOf, organisationIdOf } from "../organisations/scope.http.server";
import { registerItems } from "./save-flow.server";

export const TRIPLE_BLOCKS = [1, 2, 3] as const;

/** The page shows the three blocks (the home page's "Choose Triple"). */
export function wantsTriple(request: Request): boolean {
  return new URL(request.url).searchParams.get("package") === "tripple";
}

/** The three blocks' form was sent (its hidden field), not the single item's. */
export function isTripleForm(form: FormData): boolean {
  return form.get("form") === "tripple";
}

export interface TripleResult {
  triple: true;
  blocks: ProductFormValues[];
  blockErrors: ProductFormErrors[];
  formError: { key: string };
}

/** Saves the three or none; a refusal gives back every block as typed with its own errors. */
export async function tripleResponse(request: Request, userId: string, lang: Lang, form: FormData) {
  const deps = await getDeps();
  const blocks = TRIPLE_BLOCKS.map((n) => formValues(form, `_${n}`));
  const organisationId = organisationIdOf(await activeScopeOf(deps, request, userId));
  const saved = await registerItems(deps, { userId, blocks, lang, organisationId });
  if (!saved.ok) {
    const body: TripleResult = {
      triple: true,
      blocks,
      blockErrors: saved.errors,
      formError: { key: "items.triple.errorSummary" },
    };
    return data(body, { status: 400 });
  }
  // /order preselects three items when the package is remembered (the request's ?package=).
  const headers = new Headers();
  const chosen = deps.cookies.packageChoice(request);
  if (chosen) headers.append("Set-Cookie", chosen);
  headers.append("Set-Cookie", deps.cookies.flash("saved"));
  throw redirect(saved.next, { headers });
}
