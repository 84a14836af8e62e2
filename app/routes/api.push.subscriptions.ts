/**
 * POST /api/push/subscriptions with the browser's PushSubscription.toJSON() stores it for
 * the signed-in user; DELETE with {endpoint} removes it (decision 034). JSON in,
 * JSON out: 201/200, or a 4xx with {message} in the user's language. Same-origin like every
 * state-changing request (server/app.ts); the body limit is the JSON one (body-limit.server.ts).
 */
import { getT } from "~/i18n/i18n";
import { pushEndpointSchema, pushSubscriptionSchema } from "~/lib/domain/push";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { hasNul } from "~/server/http/form.server";
import { pushErrors } from "~/server/push/push.http.server";
import { PushError, subscribeDevice, unsubscribeDevice } from "~/server/push/push.service.server";
import type { Route } from "./+types/api.push.subscriptions";

const ALLOW = { Allow: "POST, DELETE" };
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ context }: Route.LoaderArgs) {
  const t = getT(context.get(requestContext).lang);
  return Response.json({ message: t("push.errors.invalid") }, { status: 405, headers: { ...ALLOW, ...NO_STORE } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = context.get(requestContext);
  const t = getT(lang);
  const answer = (status: number, body: Record<string, unknown>, headers: HeadersInit = {}) =>
    Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
  if (request.method !== "POST" && request.method !== "DELETE") {
    return answer(405, { message: t("push.errors.invalid") }, ALLOW);
  }
  const user = await getSessionUser(request);
  if (!user) return answer(401, { message: t("push.errors.signedOut") });
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return answer(415, { message: t("push.errors.invalid") });
  }
  let body: unknown;
  // A JSON API (decision 059's exception): a body that is not JSON is its own 400 in JSON.
  try {
    body = await request.json();
  } catch {
    return answer(400, { message: t("push.errors.invalid") });
  }
  if (hasNul(body)) return answer(400, { message: t("push.errors.invalid") });
  const deps = await getDeps();
  // A JSON API: a refusal is JSON with the translated message, not a form's answer.
  try {
    if (request.method === "DELETE") {
      const parsed = pushEndpointSchema.safeParse(body);
      if (!parsed.success) return answer(400, { message: t("push.errors.invalid") });
      const removed = await unsubscribeDevice(deps, user.ref, parsed.data.endpoint);
      return answer(200, { removed });
    }
    const parsed = pushSubscriptionSchema.safeParse(body);
    if (!parsed.success) return answer(400, { message: t("push.errors.invalid") });
    await subscribeDevice(deps, user.ref, parsed.data, { userAgent: request.headers.get("user-agent") });
    return answer(201, { ok: true });
  } catch (err) {
    if (!(err instanceof PushError)) throw err;
    const { status, message, headers } = httpErrorOf(pushErrors, err);
    return answer(status, { message: t(message.key, message.params ?? {}) }, headers);
  }
}
