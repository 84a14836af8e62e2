/**
 * /api/v1/* (decision 054): an organisation's REST API. Authenticated by its API key
 * (`Authorization: Bearer hit_…`), never by the session cookie, so the same-origin check of
 * browser forms does not apply (same-origin.server.ts). JSON in, JSON or
 * application/problem+json out; app/server/api/router.http.server.ts does the rest.
 */
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { handleApiRequest } from "~/server/api/router.http.server";
import type { Route } from "./+types/api.v1";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApiRequest(request, await getDeps(), context.get(requestContext).ip);
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleApiRequest(request, await getDeps(), context.get(requestContext).ip);
}
