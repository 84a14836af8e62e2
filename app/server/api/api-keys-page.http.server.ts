/**
 * The forms of /organisations/{id}/api (decision 054): one intent each for intentAction
 * (decision 059). Making a key answers the page with the key itself (shown once, never in a
 * URL, so no redirect); revoking redirects back (PRG).
 */
import { data, redirect } from "react-router";
import { apiKeySchema, revokeApiKeySchema } from "~/lib/domain/api-keys";
import type { SessionUser } from "~/lib/domain/session-user";
import { errorTable, orErrorPage } from "../http/errors.server";
import { intent, intentAction } from "../http/form-action.server";
import type { Deps } from "../service-deps.server";
import { ApiError, type ApiErrorCode } from "./api-error.server";
import { checkApiKeysAdmin, createApiKey, revokeApiKey } from "./api-keys.service.server";

/** The page's refusals: an outsider's or a forged id is the 404 page; the limit is said on the form. */
export const apiKeyPageErrors = errorTable<Extract<ApiErrorCode, "notFound" | "key.limit">>(ApiError, {
  notFound: { status: 404, key: "api.keys.errors.notFound", on: "page" },
  "key.limit": { status: 400, key: "api.keys.errors.limit" },
});

/** Messages a redirect back to the page may ask for (?done=…). */
const DONE = { revoked: "api.keys.done.revoked" } as const;

export function apiKeysDone(done: string | null): string | null {
  return done && Object.hasOwn(DONE, done) ? DONE[done as keyof typeof DONE] : null;
}

/** What making a key answers: its name and the key, shown this once; `told`: other admins mailed. */
export interface CreatedKey {
  created: { name: string; key: string; told: number };
}

export async function apiKeysAction(
  request: Request,
  deps: Pick<Deps, "db" | "clock" | "config">,
  user: SessionUser,
  organisationId: string,
) {
  // An outsider learns nothing, whatever they post: the 404 page before the form is read.
  await orErrorPage(apiKeyPageErrors, checkApiKeysAdmin(deps, user.ref, organisationId));
  const options = { errors: apiKeyPageErrors, unknownIntent: "api.keys.errors.notFound", tagIntent: true };
  return intentAction(request, options, {
    create: intent({
      schema: apiKeySchema,
      invalid: (errors) => ({ key: Object.values(errors)[0] ?? "api.keys.errors.nameRequired" }),
      async handle(input) {
        const creator = { id: user.ref, name: user.name || user.email };
        const { key, told } = await createApiKey(deps, creator, organisationId, input);
        return data<CreatedKey>(
          { created: { name: input.name, key, told } },
          { headers: { "Cache-Control": "private, no-store" } },
        );
      },
    }),
    revoke: intent({
      schema: revokeApiKeySchema,
      invalidOn: "page",
      async handle({ keyId }) {
        await revokeApiKey(deps, user.ref, organisationId, keyId);
        // The revoked key's button is gone: the focus goes to the message that says so.
        return redirect(`/organisations/${organisationId}/api?done=revoked#api-keys-done`);
      },
    }),
  });
}
