/**
 * The forms of an organisation's desk contacts page, /organisations/{id}/contacts
 * (decision 040): name a contact, remove one, choose per item; one intent each for
 * intentAction (decision 059), every one answered by a redirect back (PRG) or the form
 * again with its message, on the form that was sent.
 */
import { redirect } from "react-router";
import { z } from "zod";
import { intent, intentAction, type Values } from "../http/form-action.server";
import type { Deps } from "../service-deps.server";
import { addDeskContact } from "./invite.service.server";
import { chosenItemContacts, contactsSendErrors } from "./trusted-contacts.http.server";
import { removeDeskContact, saveDeskItemChoices } from "./trusted-contacts.service.server";

/** Messages a redirect back to the page may ask for (?done=…); anything else shows nothing. */
export const DESK_DONE = {
  added: "trusted.added",
  removed: "trusted.removed",
  items: "trusted.perItem.saved",
} as const;

/** A posted field as text, cut to 2000 characters ("" when absent or a file). */
const text = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? v.slice(0, 2000) : ""));

/** The new contact's fields, sent back with a refusal. */
function contactValues(form: FormData): Values {
  const field = (name: string) => text.parse(form.get(name));
  return { name: field("name"), email: field("email"), phone: field("phone") };
}

export function deskPageAction(
  request: Request,
  deps: Pick<Deps, "db" | "config" | "clock">,
  userRef: string,
  organisationId: string,
) {
  const back = (done: keyof typeof DESK_DONE) =>
    redirect(`/organisations/${organisationId}/contacts?done=${done}#trusted-title`);
  const options = {
    // The who-may-be-messaged refusals (decision 046) are in the contacts' table.
    errors: contactsSendErrors,
    values: contactValues,
    unknownIntent: "alerts.errors.unknown",
    unknownIntentOn: "alert" as const,
    tagIntent: true,
  };
  return intentAction(request, options, {
    addContact: intent({
      schema: z.object({ name: text, email: text, phone: text }),
      async handle(contact) {
        await addDeskContact(deps, userRef, organisationId, contact);
        return back("added");
      },
    }),
    removeContact: intent({
      schema: z.object({ contact: text }),
      async handle({ contact }) {
        await removeDeskContact(deps, userRef, organisationId, contact);
        return back("removed");
      },
    }),
    itemContacts: intent({
      schema: z.object({ items: text }),
      async handle({ items }, form) {
        await saveDeskItemChoices(
          deps,
          userRef,
          organisationId,
          chosenItemContacts(form),
          items.split(",").slice(0, 200),
        );
        return back("items");
      },
    }),
  });
}
