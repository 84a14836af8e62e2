/**
 * /organisations/{id}/claim (decision 036): claim mode. An organisation's admin types or
 * scans printed stickers' codes one after another; each becomes an item of the
 * organisation assigned to the chosen member. After each claim the page comes back (PRG,
 * no JavaScript needed) with the field empty and focused for the next code, the member
 * kept, and the run's items listed (`?claimed=` ids, newest last; `?to=` the member).
 * Admins only: anyone else gets "Page not found", as the organisation's other admin pages.
 */
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { claimModeSchema, parseConfirmationLines, type ClaimModeValues } from "~/lib/domain/claim-mode";
import { parseForm, type ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { requireUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { invalidForm, isErrorOf, serviceErrorResponse } from "~/server/http/errors.server";
import { readForm } from "~/server/http/form.server";
import { itemErrors } from "~/server/items/items.http.server";
import {
  checkClaimModeAdmin,
  claimBatchFile,
  claimIntoOrganisation,
  CLAIM_RUN_SHOWN,
  getClaimMode,
  previewBatchFile,
  type BatchFilePreview,
} from "~/server/stickers/claim-mode.service.server";
import type { Lang } from "~/i18n/config";
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
    const fileClaimed = Math.max(0, Math.floor(Number(search.get("fileClaimed")) || 0));
    return data({ ...page, assignedTo, fileClaimed }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (err) {
    return serviceErrorResponse(claimErrors, err);
  }
}

type Intent = "code" | "file" | "fileClaim";
type ClaimModeResult = ActionResult<ClaimModeValues> & { intent: Intent; filePreview?: BatchFilePreview };

interface Submission {
  form: FormData;
  values: ClaimModeValues;
  userId: string;
  organisationId: string;
  ip: string;
  lang: Lang;
  url: URL;
}

const answer = (intent: Intent, res: ReturnType<typeof invalidForm<ClaimModeValues>>) =>
  data<ClaimModeResult>({ ...res.data, intent }, res.init ?? undefined);

function claimError(intent: Intent, err: unknown, values: ClaimModeValues) {
  if (isErrorOf(itemErrors, err)) return answer(intent, serviceErrorResponse(itemErrors, err, values));
  return answer(intent, serviceErrorResponse(claimErrors, err, values));
}

/** One code: claimed, then back to the page ready for the next (PRG). */
async function claimCode({ form, values, userId, organisationId, ip, lang, url }: Submission) {
  // A form error costs no try of the claim limits (decision 036).
  const parsed = parseForm(claimModeSchema, form);
  if (!parsed.ok) return answer("code", invalidForm(values, parsed.fieldErrors));
  try {
    const { code, assignedTo, name } = parsed.data;
    const input = { code, assignTo: assignedTo, name };
    const { id } = await claimIntoOrganisation(await getDeps(), { userId, ip }, organisationId, input, lang);
    const run = [...runOf(url.searchParams), id].slice(-CLAIM_RUN_SHOWN);
    const to = encodeURIComponent(assignedTo ?? NOBODY);
    return redirect(`/organisations/${organisationId}/claim?to=${to}&claimed=${run.join(",")}`);
  } catch (err) {
    return claimError("code", err, values);
  }
}

/** A batch file: its preview (nothing saved), for the admin to confirm. */
async function previewFile({ form, values, userId, organisationId, ip }: Submission) {
  const file = form.get("file");
  const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
  try {
    const filePreview = await previewBatchFile(await getDeps(), { userId, ip }, organisationId, bytes);
    return data<ClaimModeResult>({ values, fieldErrors: {}, formError: null, intent: "file", filePreview });
  } catch (err) {
    return claimError("file", err, values);
  }
}

/** The confirmed preview: every sticker it listed, claimed in one transaction. */
async function claimFile({ form, values, userId, organisationId, ip, lang }: Submission) {
  const pairs = parseConfirmationLines(String(form.get("stickers") ?? ""));
  const assignedTo = values.assignedTo === "" ? null : values.assignedTo;
  try {
    const deps = await getDeps();
    const count = await claimBatchFile(deps, { userId, ip }, organisationId, pairs, assignedTo, lang);
    const to = encodeURIComponent(assignedTo ?? NOBODY);
    return redirect(`/organisations/${organisationId}/claim?to=${to}&fileClaimed=${count}`);
  } catch (err) {
    return claimError("fileClaim", err, values);
  }
}

const INTENTS: Record<Intent, (s: Submission) => Promise<Response | ReturnType<typeof answer>>> = {
  code: claimCode,
  file: previewFile,
  fileClaim: claimFile,
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  // Outsiders learn nothing, whatever they post (404 before the form is read).
  await checkClaimModeAdmin(await getDeps(), user.ref, params.id).catch((err) =>
    serviceErrorResponse(claimErrors, err),
  );
  const form = await readForm(request);
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 200);
  const values: ClaimModeValues = {
    code: text("code").slice(0, 64),
    assignedTo: text("assignedTo"),
    name: text("name"),
  };
  const intent = text("intent");
  const handler = Object.hasOwn(INTENTS, intent) ? INTENTS[intent as Intent] : claimCode;
  const { ip, lang } = context.get(requestContext);
  const url = new URL(request.url);
  return handler({ form, values, userId: user.ref, organisationId: params.id, ip, lang, url });
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
