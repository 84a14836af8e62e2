/**
 * POST /api/contact with JSON {name, email, message, captchaToken} (spec section 7).
 * 201 on success; otherwise a non-OK status with JSON {message} in the visitor's language.
 */
import { getT } from "~/i18n/i18n";
import { parseContact } from "~/lib/domain/contact";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { contactErrors } from "~/server/support/support.http.server";
import { ContactError, submitContactMessage } from "~/server/support/support.service.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { hasNul } from "~/server/http/form.server";
import type { Route } from "./+types/api.contact";

export async function loader({ context }: Route.LoaderArgs) {
  const t = getT(context.get(requestContext).lang);
  return Response.json({ message: t("contact.errors.badRequest") }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { lang, ip } = context.get(requestContext);
  const t = getT(lang);
  if (request.method !== "POST") {
    return Response.json({ message: t("contact.errors.badRequest") }, { status: 405, headers: { Allow: "POST" } });
  }
  let body: unknown;
  // A JSON API (decision 059's exception): a body that is not JSON is its own 400 in JSON.
  try {
    body = await request.json();
  } catch {
    return Response.json({ message: t("contact.errors.badRequest") }, { status: 400 });
  }
  // PostgreSQL cannot store NUL in text: refuse it on every database alike.
  if (hasNul(body)) return Response.json({ message: t("contact.errors.badRequest") }, { status: 400 });
  const parsed = parseContact(body);
  if (!parsed.ok) {
    const errors = Object.fromEntries(Object.entries(parsed.fieldErrors).map(([k, v]) => [k, t(v)]));
    return Response.json(
      { message: Object.values(errors)[0] ?? t("contact.errors.badRequest"), errors },
      { status: 400 },
    );
  }
  const deps = await getDeps();
  // A JSON API: a refusal is JSON with the translated message, not a form's answer.
  try {
    const userId = (await getSessionUser(request))?.ref ?? null;
    const { id } = await submitContactMessage(deps, parsed.data, { ip, lang, userId });
    return Response.json({ id }, { status: 201 });
  } catch (err) {
    if (!(err instanceof ContactError)) throw err;
    const { status, message, headers } = httpErrorOf(contactErrors, err);
    return Response.json({ message: t(message.key, message.params ?? {}) }, { status, headers });
  }
}
