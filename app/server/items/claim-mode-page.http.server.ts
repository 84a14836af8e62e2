/**
 * The forms of claim mode, /organisations/{id}/claim (decision 036): a typed or scanned
 * code, a batch file's preview and its confirmation, each claiming printed stickers as the
 * organisation's items; one intent each for intentAction (decision 059). Every answer names
 * its form (the code's, or the file's section), a claim goes back to the page ready for the
 * next code (PRG).
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import type { Lang } from "~/i18n/config";
import { claimModeSchema, parseConfirmationLines, type ClaimModeValues } from "~/lib/domain/claim-mode";
import type { ActionResult } from "~/lib/forms/form";
import type { RouteDeps } from "../deps.server";
import { serviceErrorResponse } from "../http/errors.server";
import { intent, intentAction } from "../http/form-action.server";
import {
  checkClaimModeAdmin,
  claimBatchFile,
  claimIntoOrganisation,
  CLAIM_RUN_SHOWN,
  previewBatchFile,
  type BatchFilePreview,
} from "../stickers/claim-mode.service.server";
import { claimErrors } from "../stickers/stickers.http.server";
import { itemErrors } from "./items.http.server";

export type ClaimModeIntent = "code" | "file" | "fileClaim";
export type ClaimModeResult = ActionResult<ClaimModeValues> & {
  intent: ClaimModeIntent;
  filePreview?: BatchFilePreview;
};

/** `?to=` for "nobody" (an empty value would read as "not chosen", the admin). */
export const NOBODY = "none";

/** The items claimed in this run, from `?claimed=` (newest last). */
export const runOf = (params: URLSearchParams) =>
  (params.get("claimed") ?? "").split(",").filter((id) => /^[A-Za-z0-9]{10}$/.test(id));

/** What the code form sends back with a refusal (each field cut short). */
function claimModeValues(form: FormData): ClaimModeValues {
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 200);
  return { code: text("code").slice(0, 64), assignedTo: text("assignedTo"), name: text("name") };
}

export interface ClaimModeVisit {
  deps: RouteDeps;
  userId: string;
  organisationId: string;
  ip: string;
  lang: Lang;
}

export async function claimModeAction(request: Request, visit: ClaimModeVisit) {
  const { deps, userId, organisationId, ip, lang } = visit;
  const who = { userId, ip };
  // Outsiders learn nothing, whatever they post (404 before the form is read).
  await checkClaimModeAdmin(deps, userId, organisationId).catch((err) => serviceErrorResponse(claimErrors, err));
  const page = (to: string | null, query: string) =>
    redirect(`/organisations/${organisationId}/claim?to=${encodeURIComponent(to ?? NOBODY)}&${query}`);
  // A code a member was assigned to is an item's refusal; the rest are the claim's.
  const options = { errors: [itemErrors, claimErrors], values: claimModeValues, otherwise: "code", tagIntent: true };
  return intentAction(request, options, {
    // One code: claimed, then back to the page ready for the next. A form error costs no try of the claim limits.
    code: intent({
      schema: claimModeSchema,
      async handle({ code, assignedTo, name }) {
        const { id } = await claimIntoOrganisation(
          deps,
          who,
          organisationId,
          { code, assignTo: assignedTo, name },
          lang,
        );
        const run = [...runOf(new URL(request.url).searchParams), id].slice(-CLAIM_RUN_SHOWN);
        return page(assignedTo, `claimed=${run.join(",")}`);
      },
    }),
    // A batch file: its preview (nothing saved), for the admin to confirm.
    file: intent({
      schema: z.object({}),
      async handle(_, form) {
        const file = form.get("file");
        const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
        const filePreview = await previewBatchFile(deps, who, organisationId, bytes);
        const values = claimModeValues(form);
        return data<ClaimModeResult>({ values, fieldErrors: {}, formError: null, intent: "file", filePreview });
      },
    }),
    // The confirmed preview: every sticker it listed, claimed in one transaction.
    fileClaim: intent({
      schema: z.object({}),
      async handle(_, form) {
        const pairs = parseConfirmationLines(String(form.get("stickers") ?? ""));
        const chosen = claimModeValues(form).assignedTo;
        const assignedTo = chosen === "" ? null : chosen;
        const count = await claimBatchFile(deps, who, organisationId, pairs, assignedTo, lang);
        return page(assignedTo, `fileClaimed=${count}`);
      },
    }),
  });
}
