/**
 * The forms of an organisation's page (decisions 022, 027, 030): one intent each for
 * intentAction (decision 059). A change that takes confirming (a role, a removal, leaving)
 * is asked first: the valid post comes back with `confirm`, and the page posts it again with
 * `confirmed=yes` (no JavaScript needed).
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import type { Lang } from "~/i18n/config";
import type { ActionResult } from "~/lib/forms/form";
import { inviteSchema, memberSchema, organisationSchema, revokeSchema, roleSchema } from "~/lib/domain/organisations";
import type { SessionUser } from "~/lib/domain/session-user";
import type { RouteDeps } from "../deps.server";
import { intent, intentAction } from "../http/form-action.server";
import { organisationFormErrors } from "./organisations.http.server";
import {
  acceptDpa,
  changeRole,
  inviteMember,
  leaveOrganisation,
  removeMember,
  revokeInvite,
  sendBillingEmailConfirmation,
  updateOrganisation,
} from "./organisations.service.server";

/** Messages a redirect back to the page may ask for (?done=…); anything else shows nothing. */
export const ORGANISATION_DONE = {
  created: "organisations.done.created",
  details: "organisations.done.details",
  invited: "organisations.done.invited",
  revoked: "organisations.done.revoked",
  role: "organisations.done.role",
  removed: "organisations.done.removed",
  joined: "organisations.done.joined",
  billingLinkSent: "organisations.done.billingLinkSent",
  dpaAccepted: "organisations.done.dpaAccepted",
} as const;
type Done = keyof typeof ORGANISATION_DONE;

/** The message a `?done=` asks for, or null. */
export function organisationDone(done: string | null): string | null {
  return done && Object.hasOwn(ORGANISATION_DONE, done) ? ORGANISATION_DONE[done as Done] : null;
}

type Values = Partial<Record<string, string>>;
/** `confirm`: the posted change is valid but not confirmed yet; the page asks first. */
export type OrganisationResult = ActionResult<Values> & { intent?: string; confirm?: boolean };

/** Every text field comes back to the page. */
function allValues(form: FormData): Values {
  const values: Values = {};
  for (const [k, v] of Object.entries(Object.fromEntries(form))) if (typeof v === "string") values[k] = v;
  return values;
}

/** Changes that take a second, confirming POST (`confirmed=yes`). */
const confirmed = (form: FormData) => form.get("confirmed") === "yes";
const askFirst = (intent: string, form: FormData) =>
  data<OrganisationResult>({ values: allValues(form), fieldErrors: {}, formError: null, intent, confirm: true });

/** The first field's message on the form's alert too (it takes the focus). */
const firstError = (errors: Record<string, string>) => ({
  key: Object.values(errors)[0] ?? "organisations.errors.notFound",
});
const notFound = "organisations.errors.notFound";

export function organisationAction(request: Request, deps: RouteDeps, user: SessionUser, id: string, lang: Lang) {
  // The focus goes to the message (#org-done): a withdrawn invite's or a removed member's
  // button is gone, and a saved form is far below it.
  const back = (done: Done) => redirect(`/organisations/${id}?done=${done}#org-done`);
  const sender = { id: user.ref, name: user.name, emailVerified: user.emailVerified };
  const options = { errors: organisationFormErrors, values: allValues, unknownIntent: notFound, tagIntent: true };
  return intentAction(request, options, {
    details: intent({
      schema: organisationSchema,
      invalid: { key: "organisations.errors.summary" },
      async handle(input) {
        await updateOrganisation(deps, user.ref, id, input);
        return back("details");
      },
    }),
    invite: intent({
      schema: inviteSchema,
      invalid: firstError,
      async handle(input) {
        await inviteMember(deps, sender, id, input, lang);
        return back("invited");
      },
    }),
    // The box must be ticked: an acceptance is an explicit act (decision 030).
    acceptDpa: intent({
      schema: z.object({ accept: z.literal("yes"), version: z.unknown().optional() }),
      invalidFields: { accept: "organisations.errors.dpaTick" },
      invalid: { key: "organisations.errors.dpaTick" },
      async handle({ version }) {
        await acceptDpa(deps, { id: user.ref, name: user.name, email: user.email }, id, Number(version));
        return back("dpaAccepted");
      },
    }),
    revoke: intent({
      schema: revokeSchema,
      invalidFields: { inviteId: notFound },
      invalid: { key: notFound },
      async handle({ inviteId }) {
        await revokeInvite(deps, user.ref, id, inviteId);
        return back("revoked");
      },
    }),
    role: intent({
      schema: roleSchema,
      invalid: firstError,
      async handle(input, form) {
        if (!confirmed(form)) return askFirst("role", form);
        await changeRole(deps, user.ref, id, input.userId, input.role);
        return back("role");
      },
    }),
    remove: intent({
      schema: memberSchema,
      invalidFields: { userId: notFound },
      invalid: { key: notFound },
      async handle(input, form) {
        if (!confirmed(form)) return askFirst("remove", form);
        await removeMember(deps, user.ref, id, input.userId);
        return back("removed");
      },
    }),
    confirmBilling: intent({
      schema: z.object({}),
      async handle() {
        await sendBillingEmailConfirmation(deps, sender, id, lang);
        return back("billingLinkSent");
      },
    }),
    leave: intent({
      schema: z.object({}),
      async handle(_, form) {
        if (!confirmed(form)) return askFirst("leave", form);
        await leaveOrganisation(deps, user.ref, id);
        return redirect("/dashboard");
      },
    }),
  });
}
