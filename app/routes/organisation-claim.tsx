/**
 * /organisations/{id}/claim (decision 036): claim mode. An organisation's admin types or
 * scans printed stickers' codes one after another; each becomes an item of the
 * organisation assigned to the chosen member. After each claim the page comes back (PRG,
 * no JavaScript needed) with the field empty and focused for the next code, the member
 * kept, and the run's items listed (`?claimed=` ids, newest last; `?to=` the member).
 * Admins only: anyone else gets "Page not found", as the organisation's other admin pages.
 */
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "~/i18n/react";
import { claimModeSchema, type ClaimModeValues } from "~/lib/claim-mode";
import { parseForm, type ActionResult } from "~/lib/form";
import { pageMeta } from "~/lib/meta";
import { formatStickerCode } from "~/lib/sticker-code";
import { requireUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { invalidForm, isErrorOf, serviceErrorResponse } from "~/server/http/errors.server";
import { readForm } from "~/server/http/form.server";
import { itemErrors } from "~/server/items/items.http.server";
import {
  checkClaimModeAdmin,
  claimIntoOrganisation,
  CLAIM_RUN_SHOWN,
  getClaimMode,
} from "~/server/stickers/claim-mode.service.server";
import { claimErrors } from "~/server/stickers/stickers.http.server";
import type { Route } from "./+types/organisation-claim";

export const handle = { i18n: ["items", "organisations"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "organisations.claimMode"), { name: "robots", content: "noindex" }];
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

/** `?to=` for "nobody" (an empty value would read as "not chosen", the admin). */
const NOBODY = "none";
const runOf = (params: URLSearchParams) =>
  (params.get("claimed") ?? "").split(",").filter((id) => /^[A-Za-z0-9]{10}$/.test(id));

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const search = new URL(request.url).searchParams;
  try {
    const page = await getClaimMode(await getDeps(), user.ref, params.id, runOf(search));
    const to = search.get("to");
    const assignedTo = to === NOBODY ? "" : page.members.some((m) => m.id === to) ? to! : user.ref;
    return data({ ...page, assignedTo }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (err) {
    return serviceErrorResponse(claimErrors, err);
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const deps = await getDeps();
  // Outsiders learn nothing, whatever they post (404 before the form is read).
  await checkClaimModeAdmin(deps, user.ref, params.id).catch((err) => serviceErrorResponse(claimErrors, err));
  const form = await readForm(request);
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 200);
  const values: ClaimModeValues = {
    code: text("code").slice(0, 64),
    assignedTo: text("assignedTo"),
    name: text("name"),
  };
  // A form error costs no try of the claim limits (decision 036).
  const parsed = parseForm(claimModeSchema, form);
  if (!parsed.ok) return invalidForm(values, parsed.fieldErrors);
  const { ip, lang } = context.get(requestContext);
  try {
    const { id } = await claimIntoOrganisation(
      deps,
      { userId: user.ref, ip },
      params.id,
      { code: parsed.data.code, assignTo: parsed.data.assignedTo, name: parsed.data.name },
      lang,
    );
    const run = [...runOf(new URL(request.url).searchParams), id].slice(-CLAIM_RUN_SHOWN);
    const to = parsed.data.assignedTo ?? NOBODY;
    return redirect(`/organisations/${params.id}/claim?to=${encodeURIComponent(to)}&claimed=${run.join(",")}`);
  } catch (err) {
    if (isErrorOf(itemErrors, err)) return serviceErrorResponse(itemErrors, err, values);
    return serviceErrorResponse(claimErrors, err, values);
  }
}

export default function OrganisationClaim({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { organisation, members, claimed, assignedTo } = loaderData;
  const result = actionData as ActionResult<ClaimModeValues> | undefined;
  const codeError = result?.fieldErrors.code ?? (result?.formError ? result.formError : null);
  const nameError = result?.fieldErrors.name;
  const latest = claimed[0];
  const codeRef = useRef<HTMLInputElement>(null);
  // Ready for the next code after every claim or refusal (a scanner types it and Enter):
  // a refused code is selected, so the next scan replaces it.
  useEffect(() => {
    codeRef.current?.focus();
    codeRef.current?.select();
  }, [claimed.length, result]);
  const run = claimed.map((c) => c.id).reverse();
  const errorText = (m: typeof codeError) => (!m ? "" : typeof m === "string" ? t(m) : t(m.key, m.params ?? {}));
  return (
    <div className="py-4 col-lg-8 claim-mode">
      <p>
        <Link to={`/organisations/${params.id}`}>{t("organisations.claimMode.back", { name: organisation.name })}</Link>
      </p>
      <h1 className="text-break">{t("organisations.claimMode.pageTitle", { name: organisation.name })}</h1>
      <p>{t("organisations.claimMode.intro")}</p>
      <div role="status">
        {latest && !result ? (
          <p className="alert alert-success">
            {t("organisations.claimMode.claimed", { code: formatStickerCode(latest.code), name: latest.name })}
          </p>
        ) : null}
      </div>
      <Form
        method="post"
        action={`/organisations/${params.id}/claim${run.length ? `?claimed=${run.join(",")}` : ""}`}
        className="mb-4"
        style={{ maxWidth: "28rem" }}
        key={claimed.length}
      >
        <label htmlFor="claim-mode-code" className="form-label">
          {t("organisations.claimMode.code")}
        </label>
        <input
          ref={codeRef}
          id="claim-mode-code"
          name="code"
          type="text"
          className={`form-control${codeError ? " is-invalid" : ""}`}
          defaultValue={result?.values.code ?? ""}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          required
          autoFocus
          aria-invalid={codeError ? true : undefined}
          aria-describedby={`claim-mode-code-help${codeError ? " claim-mode-code-error" : ""}`}
        />
        {codeError ? (
          <div id="claim-mode-code-error" className="invalid-feedback" role="alert">
            {errorText(codeError)}
          </div>
        ) : null}
        <div id="claim-mode-code-help" className="form-text mb-3">
          {t("items.claim.help")}
        </div>
        <label htmlFor="claim-mode-assignedTo" className="form-label">
          {t("items.assign.label")}
        </label>
        <select
          id="claim-mode-assignedTo"
          name="assignedTo"
          className="form-select mb-3"
          defaultValue={result?.values.assignedTo ?? assignedTo}
        >
          <option value="">{t("items.assign.nobody")}</option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
        <label htmlFor="claim-mode-name" className="form-label">
          {t("organisations.claimMode.name")}
        </label>
        <input
          id="claim-mode-name"
          name="name"
          type="text"
          className={`form-control${nameError ? " is-invalid" : ""}`}
          defaultValue={result?.values.name ?? ""}
          maxLength={80}
          aria-invalid={nameError ? true : undefined}
          aria-describedby="claim-mode-name-help"
        />
        {nameError ? <div className="invalid-feedback">{t(nameError)}</div> : null}
        <div id="claim-mode-name-help" className="form-text mb-3">
          {t("organisations.claimMode.nameHelp", {
            example: t("organisations.claimMode.defaultName", { code: "K7M-29Q-XHR" }),
          })}
        </div>
        <button type="submit" className="btn btn-primary">
          {t("organisations.claimMode.submit")}
        </button>
      </Form>
      <section aria-labelledby="claim-mode-run">
        <h2 id="claim-mode-run" className="h5">
          {t("organisations.claimMode.run", { count: claimed.length })}
        </h2>
        {claimed.length === 0 ? (
          <p>{t("organisations.claimMode.runEmpty")}</p>
        ) : (
          <ul className="list-unstyled claim-mode-run">
            {claimed.map((c) => (
              <li key={c.id} className="mb-1 text-break">
                <code className="me-2">{formatStickerCode(c.code)}</code>
                <Link to={`/product/edit/${c.id}`}>{c.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
