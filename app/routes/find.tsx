import { leanWhenAnonymous, type LeanHandle } from "~/lean/lean-page";
import { data, redirect } from "react-router";
import { FindCodeForm } from "~/components/FindCodeForm";
import { FormAlert } from "~/components/form/FormAlert";
import type { FormMessage } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { fulfilErrors } from "~/server/fulfil/fulfil.http.server";
import { findItemByCode, FulfilError } from "~/server/fulfil/fulfil.service.server";
import { httpErrorOf } from "~/server/http/errors.server";
import type { Route } from "./+types/find";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
/** Anonymous visitors get the page without framework JavaScript (decisions 042 and 020). */
export const handle: { i18n: string[] } & LeanHandle = { i18n: ["fulfil"], lean: leanWhenAnonymous };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "fulfil.find"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/**
 * GET /find?code=…: a finder's typed sticker code (decision 015). Found: 302 to the item page.
 * Without a code: the form. A bad, unknown or replaced code: the form again with the
 * message and a 400/404/410; too many tries from one IP: 429.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const typed = new URL(request.url).searchParams.get("code");
  const noStore = { "Cache-Control": "no-store" };
  const deps = await getDeps();
  const smsNumber = deps.site.smsNumber;
  if (typed === null) return data({ code: "", error: null as FormMessage | null, smsNumber }, { headers: noStore });
  // Shown back in the field: at most what the field takes, without control characters.
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const code = typed.slice(0, 64).replace(/[\u0000-\u001f\u007f]/g, "");
  const { ip } = context.get(requestContext);
  // A GET form (decision 059's exception): the refusal is shown on this page beside the code typed.
  try {
    const { id } = await findItemByCode(deps, typed, ip);
    throw redirect(`/product/${id}`, { headers: noStore });
  } catch (err) {
    if (!(err instanceof FulfilError)) throw err;
    const { status, message, headers } = httpErrorOf(fulfilErrors, err);
    return data(
      { code, error: message as FormMessage | null, smsNumber },
      { status, headers: { ...noStore, ...headers } },
    );
  }
}

export default function Find({ loaderData }: Route.ComponentProps) {
  const { code, error, smsNumber } = loaderData;
  return (
    <section className="py-4 find-page">
      <FormAlert message={error} />
      <FindCodeForm as="h1" defaultValue={code} invalid={error !== null} smsNumber={smsNumber} />
    </section>
  );
}
