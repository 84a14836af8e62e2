/**
 * /organisations/{id}/webhooks (decision 061): the page's loader and its forms, one intent
 * each for intentAction (decision 059). Every form answers a redirect back (PRG) with a
 * `?done=` message, or the add form again with its field errors.
 */
import { data, redirect } from "react-router";
import { endpointSchema, readAddEndpointForm, resendSchema } from "~/lib/domain/webhooks";
import type { RouteDeps } from "../deps.server";
import { intent, intentAction } from "../http/form-action.server";
import { serviceErrorResponse } from "../http/errors.server";
import { webhookErrors } from "./webhooks.http.server";
import {
  addEndpoint,
  deleteEndpoint,
  getWebhooksPage,
  resendEvent,
  sendTestEvent,
  setEndpointEnabled,
} from "./webhooks.service.server";

/** Messages a redirect back may ask for (?done=…); anything else shows nothing. */
const DONE = {
  added: "webhooks.done.added",
  enabled: "webhooks.done.enabled",
  disabled: "webhooks.done.disabled",
  deleted: "webhooks.done.deleted",
  test: "webhooks.done.test",
  resent: "webhooks.done.resent",
} as const;
type Done = keyof typeof DONE;

export async function webhooksLoader(request: Request, deps: RouteDeps, userId: string, organisationId: string) {
  try {
    const page = await getWebhooksPage(deps, userId, organisationId);
    const done = new URL(request.url).searchParams.get("done") ?? "";
    const message = Object.hasOwn(DONE, done) ? DONE[done as Done] : null;
    return data({ ...page, message }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (err) {
    return serviceErrorResponse(webhookErrors, err);
  }
}

export function webhooksAction(request: Request, deps: RouteDeps, userId: string, id: string) {
  const back = (done: Done, anchor = "webhooks-title") =>
    redirect(`/organisations/${id}/webhooks?done=${done}#${anchor}`);
  const options = {
    errors: webhookErrors,
    unknownIntent: "webhooks.errors.notFound",
    tagIntent: true,
    values: (form: FormData) => ({
      url: String(form.get("url") ?? "").slice(0, 2000),
      events: form.getAll("events").join(","),
    }),
  };
  return intentAction(request, options, {
    add: intent({
      parse: readAddEndpointForm,
      invalid: (errors) => ({ key: Object.values(errors)[0] ?? "webhooks.errors.urlInvalid" }),
      async handle(input) {
        await addEndpoint(deps, userId, id, input);
        return back("added");
      },
    }),
    enable: intent({
      schema: endpointSchema,
      invalidOn: "page",
      async handle({ endpoint }) {
        await setEndpointEnabled(deps, userId, id, endpoint, true);
        return back("enabled", `endpoint-${endpoint}`);
      },
    }),
    disable: intent({
      schema: endpointSchema,
      invalidOn: "page",
      async handle({ endpoint }) {
        await setEndpointEnabled(deps, userId, id, endpoint, false);
        return back("disabled", `endpoint-${endpoint}`);
      },
    }),
    delete: intent({
      schema: endpointSchema,
      invalidOn: "page",
      async handle({ endpoint }) {
        await deleteEndpoint(deps, userId, id, endpoint);
        return back("deleted");
      },
    }),
    test: intent({
      schema: endpointSchema,
      invalidOn: "page",
      async handle({ endpoint }) {
        await sendTestEvent(deps, userId, id, endpoint);
        return back("test", `endpoint-${endpoint}`);
      },
    }),
    resend: intent({
      schema: resendSchema,
      invalidOn: "page",
      async handle({ endpoint, event }) {
        await resendEvent(deps, userId, id, endpoint, event);
        return back("resent", `endpoint-${endpoint}`);
      },
    }),
  });
}
