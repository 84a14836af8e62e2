import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import type { ActionResult, FormMessage } from "~/lib/forms/form";
import { replacementFormSchema, type ReplacementModeInput } from "~/lib/domain/fulfil";
import { isItemId } from "~/lib/domain/ids";
import { pageMeta } from "~/lib/domain/meta";
import { addressLines } from "~/lib/forms/order-form";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { fulfilErrors } from "~/server/fulfil/fulfil.http.server";
import { FulfilError, replacementView, requestReplacement } from "~/server/fulfil/fulfil.service.server";
import { httpErrorOf, onPage } from "~/server/http/errors.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { requestContext } from "~/server/context";
import { itemErrors } from "~/server/items/items.http.server";
import { claimErrors } from "~/server/stickers/stickers.http.server";
import { moveOntoSpare } from "~/server/stickers/stickers.service.server";
import type { Route } from "./+types/item-replacement";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["fulfil", "items"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "fulfil.replacement");
}

/**
 * A replacement sticker for the owner's item (decision 015). Another user's or an unknown
 * item is the 404 page; an item that is not paid shows why it cannot be replaced.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request);
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  // An item that cannot be replaced (not paid) is said on this page itself; 404 is the bare page.
  try {
    return { view: await replacementView(await getDeps(), user.ref, params.id), error: null as FormMessage | null };
  } catch (err) {
    if (!(err instanceof FulfilError)) throw err;
    const { status, message } = httpErrorOf(fulfilErrors, err);
    if (status === 404) throw data(null, { status });
    return { view: null, error: message };
  }
}

type Values = { mode: ReplacementModeInput | "" };

type SpareValues = { code: string };

const modeValues = (form: FormData): Values => {
  const parsed = replacementFormSchema.safeParse({ mode: form.get("mode") });
  return { mode: parsed.success ? parsed.data.mode : "" };
};
const modeRequired = "fulfil.replacement.modeRequired";

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request);
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  const deps = await getDeps();
  return intentAction(
    request,
    { errors: fulfilErrors, values: modeValues, otherwise: "replace" },
    {
      // The item moves onto a spare printed sticker the owner typed (decision 036).
      spare: intent({
        schema: z.object({
          code: z
            .unknown()
            .optional()
            .transform((v) => String(v ?? "").slice(0, 64)),
        }),
        values: (form) => ({ code: String(form.get("code") ?? "").slice(0, 64) }),
        // A code refused is said beside it; the item itself not found is the 404 page.
        errors: [claimErrors, onPage(itemErrors)],
        async handle({ code }) {
          const moved = await moveOntoSpare(
            deps,
            { userId: user.ref, ip: context.get(requestContext).ip },
            params.id,
            code,
          );
          return redirect(`/product/${moved.id}`);
        },
      }),
      replace: intent({
        schema: replacementFormSchema,
        invalidFields: { mode: modeRequired },
        invalid: { key: modeRequired },
        async handle({ mode }) {
          await requestReplacement(deps, user.ref, params.id, mode);
          return redirect("/dashboard", { headers: { "Set-Cookie": deps.cookies.flash("replacementOrdered") } });
        },
      }),
    },
  );
}

export default function ProductReplacement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { view, error } = loaderData;
  const result = actionData as ActionResult<Values> | undefined;
  const busy = useNavigation().state !== "idle";
  const chosen = result?.values.mode ?? "";
  return (
    <section className="py-4" aria-labelledby="replacement-title">
      <h1 id="replacement-title">{t("fulfil.replacement.title")}</h1>
      <FormAlert message={result?.formError ?? error} />
      {view ? (
        <>
          <p className="text-break">{t("fulfil.replacement.intro", { name: view.name })}</p>
          <p>{t("fulfil.replacement.free")}</p>
          {view.nextAllowedAt !== null ? (
            <div className="alert alert-info" role="status">
              {t("fulfil.replacement.nextAllowed", { date: formatDate(view.nextAllowedAt, lang) })}
            </div>
          ) : (
            <Form method="post" className="mb-3">
              <fieldset className="mb-3">
                <legend className="h5">{t("fulfil.replacement.mode")}</legend>
                {(["reprint", "newCode"] as const).map((mode) => (
                  <div key={mode} className="form-check mb-2">
                    <input
                      className="form-check-input"
                      type="radio"
                      name="mode"
                      id={`mode-${mode}`}
                      value={mode}
                      defaultChecked={chosen === mode}
                      required
                      aria-describedby={`mode-${mode}-help`}
                    />
                    <label className="form-check-label fw-semibold" htmlFor={`mode-${mode}`}>
                      {t(`fulfil.replacement.${mode}`)}
                    </label>
                    <div id={`mode-${mode}-help`} className="form-text mt-0">
                      {t(`fulfil.replacement.${mode}Help`)}
                    </div>
                  </div>
                ))}
              </fieldset>
              {view.address ? (
                <>
                  <p className="mb-1">{t("fulfil.replacement.address")}</p>
                  <p className="shipment-address text-break">{addressLines(view.address, { lang }).join("\n")}</p>
                </>
              ) : null}
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {t("fulfil.replacement.submit")}
              </button>
            </Form>
          )}
        </>
      ) : null}
      <section className="card mb-3" aria-labelledby="spare-title" style={{ maxWidth: "36rem" }}>
        <div className="card-body">
          <h2 id="spare-title" className="h5">
            {t("items.spare.title")}
          </h2>
          <p>{t("items.spare.help")}</p>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="spare" />
            <label htmlFor="spare-code" className="form-label">
              {t("items.spare.label")}
            </label>
            <input
              id="spare-code"
              name="code"
              className="form-control mb-3"
              defaultValue={(actionData as ActionResult<SpareValues> | undefined)?.values.code ?? ""}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
            />
            <button type="submit" className="btn btn-outline-primary" disabled={busy}>
              {t("items.spare.submit")}
            </button>
          </Form>
        </div>
      </section>
      <p>
        <Link to="/dashboard">{t("fulfil.replacement.back")}</Link>
      </p>
    </section>
  );
}
