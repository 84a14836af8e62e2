/**
 * The finder's forms (decision 013), for formAction / intentAction (decision 059): the
 * first message from an item's page, the next ones and the address's confirmation on the
 * finder's private link.
 */
import { redirect } from "react-router";
import { z } from "zod";
import type { Lang } from "~/i18n/config";
import { parseFinderMessage } from "~/lib/domain/relay";
import type { RouteDeps } from "../deps.server";
import { formAction, intent, intentAction } from "../http/form-action.server";
import { PRIVATE_LINK_HEADERS } from "../http/private-link.server";
import { relayErrors } from "./relay.http.server";
import { confirmFinderMail, continueFinderConversation, sendFinderMessage } from "./relay.service.server";

interface Sender {
  ip: string;
  lang: Lang;
}

/** The first message from an item's page: sent, then off to the finder's private link. */
export function firstMessageAction(
  request: Request,
  deps: RouteDeps,
  itemId: string,
  from: Sender & { viewerId: string | null },
) {
  return formAction(
    request,
    { errors: relayErrors },
    {
      parse: parseFinderMessage,
      async handle(input) {
        const { token } = await sendFinderMessage(deps, itemId, input, from);
        return redirect(`/m/${token}?sent=1`);
      },
    },
  );
}

/** On the finder's private link: another message (the page's main form), or the address confirmed. */
export function finderThreadAction(request: Request, deps: RouteDeps, token: string, from: Sender) {
  return intentAction(
    request,
    { errors: relayErrors, otherwise: "message" },
    {
      confirmMail: intent({
        schema: z.object({ c: z.string().nullable().catch(null) }),
        // A wrong code confirms nothing and says nothing: the page shows the address unconfirmed.
        errorsOn: "page",
        async handle(input) {
          await confirmFinderMail(deps, token, input.c);
          return redirect(`/m/${token}`, { headers: PRIVATE_LINK_HEADERS });
        },
      }),
      message: intent({
        parse: parseFinderMessage,
        async handle(input) {
          await continueFinderConversation(deps, token, input, from);
          return redirect(`/m/${token}?sent=1`, { headers: PRIVATE_LINK_HEADERS });
        },
      }),
    },
  );
}
