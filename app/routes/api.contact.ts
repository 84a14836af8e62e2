/**
 * POST /api/contact with JSON {name, email, message, captchaToken} (spec section 7).
 * 201 on success; otherwise a non-OK status with JSON {message} in the visitor's language.
 */
import { getT } from "~/i18n/i18n";
import { contactSchema, fieldErrors } from "~/lib/contact";
import { requestContext } from "~/server/context";
import { contactErrorHeaders, contactErrorMessage, contactErrorStatus } from "~/server/contact/contact.http.server";
import { ContactError, submitContactMessage } from "~/server/contact/contact.service.server";
import { hasNul } from "~/server/http/form.server";
import { getRuntime } from "~/server/runtime.server";
import type { Route } from "./+types/api.contact";

export async function loader({ context }: Route.LoaderArgs) {
  const t = getT(context.get(requestContext).lang);
  return Response.json({ message: t("contact.errors.badRequest") }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { lang, ip } = context.get(requestContext);
  const t = getT(lang);
  const { config, database } = await getRuntime();
  if (request.method !== "POST") {
    return Response.json({ message: t("contact.errors.badRequest") }, { status: 405, headers: { Allow: "POST" } });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ message: t("contact.errors.badRequest") }, { status: 400 });
  }
  // PostgreSQL cannot store NUL in text: refuse it on every database alike.
  if (hasNul(body)) return Response.json({ message: t("contact.errors.badRequest") }, { status: 400 });
  const parsed = contactSchema.safeParse(body);
  if (!parsed.success) {
    const errors = Object.fromEntries(Object.entries(fieldErrors(parsed.error)).map(([k, v]) => [k, t(v)]));
    return Response.json(
      { message: Object.values(errors)[0] ?? t("contact.errors.badRequest"), errors },
      { status: 400 },
    );
  }
  try {
    const { id } = await submitContactMessage({ config, db: database.db }, parsed.data, { ip, lang });
    return Response.json({ id }, { status: 201 });
  } catch (err) {
    if (!(err instanceof ContactError)) throw err;
    return Response.json(
      { message: contactErrorMessage(t, err, config.captcha) },
      { status: contactErrorStatus(err), headers: contactErrorHeaders(err) },
    );
  }
}
