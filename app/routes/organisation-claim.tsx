/**
 * /organisations/{id}/claim (decision 036): claim mode. An organisation's admin types or
 * scans printed stickers' codes one after another; each becomes an item of the
 * organisation assigned to the chosen member. After each claim the page comes back (PRG,
 * no JavaScript needed) with the field empty and focused for the next code, the member
 * kept, and the run's items listed (`?claimed=` ids, newest last; `?to=` the member).
 * Admins only: anyone else gets "Page not found", as the organisation's other admin pages.
 */
import { useEffect, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/domain/meta";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { requireUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { claimModeAction, NOBODY, runOf, type ClaimModeResult } from "~/server/items/claim-mode-page.http.server";
import { getClaimMode } from "~/server/stickers/claim-mode.service.server";
import { AssignSelect, ClaimFileForm } from "~/components/ClaimFileForm";
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

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const page = await orErrorPage(claimErrors, getClaimMode(await getDeps(), user.ref, params.id, runOf(search)));
  const to = search.get("to");
  const assignedTo = to === NOBODY ? "" : page.members.some((m) => m.id === to) ? to! : user.ref;
  const fileClaimed = Math.max(0, Math.floor(Number(search.get("fileClaimed")) || 0));
  return { ...page, assignedTo, fileClaimed };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const { ip, lang } = context.get(requestContext);
  const visit = { deps: await getDeps(), userId: user.ref, organisationId: params.id, ip, lang };
  return claimModeAction(request, visit);
}

export default function OrganisationClaim({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { organisation, members, claimed, assignedTo, fileClaimed } = loaderData;
  const answer = actionData as ClaimModeResult | undefined;
  // The code form's answer; the file's is shown in its own section.
  const result = answer?.intent === "code" ? answer : undefined;
  const fileResult = answer && answer.intent !== "code" ? answer : undefined;
  const codeError = result?.fieldErrors.code ?? (result?.formError ? result.formError : null);
  const nameError = result?.fieldErrors.name;
  const latest = claimed[0];
  const codeRef = useRef<HTMLInputElement>(null);
  // The file's forms post to this page's URL, so a preview keeps the run and the member.
  const { search } = useLocation();
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
        {latest && !answer ? (
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
        <input type="hidden" name="intent" value="code" />
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
        <AssignSelect id="claim-mode-assignedTo" members={members} value={result?.values.assignedTo ?? assignedTo} />
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
      <ClaimFileForm
        action={`/organisations/${params.id}/claim${search}`}
        members={members}
        assignedTo={fileResult?.values.assignedTo ?? assignedTo}
        preview={fileResult?.filePreview ?? null}
        error={fileResult ? (fileResult.formError ?? fileResult.fieldErrors.file ?? null) : null}
        claimedCount={fileClaimed}
      />
    </div>
  );
}
