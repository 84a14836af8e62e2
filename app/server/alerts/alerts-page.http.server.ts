/**
 * The forms of /account/alerts (decision 033): the mobile number and its code, the alert
 * settings, the trusted contacts and which of them each item alerts; one intent each for
 * intentAction (decision 059), every one answered by a redirect back (PRG) or the form
 * again with its message and what was typed.
 */
import { redirect } from "react-router";
import { z } from "zod";
import type { Lang } from "~/i18n/config";
import { alertSettingsFromForm } from "~/lib/domain/alerts";
import { chosenItemContacts, contactsSendErrors } from "../trusted-contacts/trusted-contacts.http.server";
import { removeContact, saveItemContactChoices } from "../trusted-contacts/trusted-contacts.service.server";
import { addContact } from "../trusted-contacts/invite.service.server";
import type { RouteDeps } from "../deps.server";
import { intent, intentAction, type Values } from "../http/form-action.server";
import { alertsErrors } from "./alerts.http.server";
import {
  AlertsError,
  confirmPhoneCode,
  removePhone,
  requestPhoneCode,
  saveAlertSettings,
} from "./alerts.service.server";

/** Messages a redirect back to the page may ask for (?done=…). */
export const ALERTS_DONE = {
  codeSent: "alerts.phone.codeSent",
  phoneVerified: "alerts.phone.verifiedDone",
  phoneRemoved: "alerts.phone.removed",
  settings: "alerts.settings.saved",
  contactAdded: "trusted.added",
  contactRemoved: "trusted.removed",
  itemContacts: "trusted.perItem.saved",
} as const;

/** The message a `?done=` asks for, or null. */
export function alertsDone(done: string | null): string | null {
  return done && Object.hasOwn(ALERTS_DONE, done) ? ALERTS_DONE[done as keyof typeof ALERTS_DONE] : null;
}

/** The posted fields to show again (each cut to 200 characters). */
function valuesOf(form: FormData): Values {
  const values: Values = {};
  for (const [k, v] of Object.entries(Object.fromEntries(form))) if (typeof v === "string") values[k] = v.slice(0, 200);
  return values;
}

/**
 * A phone or code refusal is marked beside its field too: the message with its count
 * (tries left, minutes) is the form's, the field gets a mark that needs none.
 */
function phoneMarks(err: unknown): Record<string, string> {
  if (!(err instanceof AlertsError)) return {};
  const field = err.code.startsWith("phone.") ? "phone" : "code";
  return { [field]: err.params.count === undefined ? alertsErrors[err.code].key : `alerts.errors.${field}Field` };
}

const text = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? v : ""));
const back = (done: keyof typeof ALERTS_DONE, anchor = "") => redirect(`/account/alerts?done=${done}${anchor}`);

export function alertsPageAction(request: Request, deps: RouteDeps, userRef: string, lang: Lang) {
  // The who-may-be-messaged refusals (decision 046) are in the contacts' table.
  const options = {
    errors: [alertsErrors, ...contactsSendErrors],
    values: valuesOf,
    marks: phoneMarks,
    unknownIntent: "alerts.errors.unknown",
    unknownIntentOn: "alert" as const,
    tagIntent: true,
  };
  return intentAction(request, options, {
    phone: intent({
      schema: z.object({ phone: text }),
      async handle({ phone }) {
        await requestPhoneCode(deps, userRef, lang, phone);
        return back("codeSent");
      },
    }),
    code: intent({
      schema: z.object({ code: text }),
      async handle({ code }) {
        await confirmPhoneCode(deps, userRef, code);
        return back("phoneVerified");
      },
    }),
    removePhone: intent({
      schema: z.object({}),
      async handle() {
        await removePhone(deps, userRef);
        return back("phoneRemoved");
      },
    }),
    settings: intent({
      schema: z.object({}),
      async handle(_, form) {
        await saveAlertSettings(deps, userRef, alertSettingsFromForm(Object.fromEntries(form)));
        return back("settings", "#alerts-settings-title");
      },
    }),
    addContact: intent({
      // A trusted contact's refusals are the contacts' own (a phone beside its field).
      errors: contactsSendErrors,
      schema: z.object({ name: text, email: text, phone: text }),
      async handle(contact) {
        await addContact(deps, userRef, contact);
        return back("contactAdded", "#trusted-title");
      },
    }),
    removeContact: intent({
      errors: contactsSendErrors,
      schema: z.object({ contact: text }),
      async handle({ contact }) {
        await removeContact(deps, userRef, contact);
        return back("contactRemoved", "#trusted-title");
      },
    }),
    itemContacts: intent({
      errors: contactsSendErrors,
      schema: z.object({ items: text }),
      async handle({ items }, form) {
        const itemIds = items.split(",").filter(Boolean).slice(0, 200);
        await saveItemContactChoices(deps, userRef, chosenItemContacts(form), itemIds);
        return back("itemContacts", "#trusted-items-title");
      },
    }),
  });
}
