/**
 * /dashboard/import/template.csv: an empty import file with the columns and two example
 * rows, in the user's language and with its separator (issue #20 point 3).
 */
import * as cookie from "cookie";
import { data } from "react-router";
import { SCOPE_COOKIE } from "~/lib/organisation-roles";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { importErrors } from "~/server/items/import.http.server";
import { csvScope, ImportError, importTemplate } from "~/server/items/import.service.server";
import type { Route } from "./+types/dashboard-import-template";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  try {
    const scope = await csvScope(
      await getDeps(),
      user.ref,
      cookie.parse(request.headers.get("Cookie") ?? "")[SCOPE_COOKIE],
    );
    const file = importTemplate(scope, lang);
    return new Response(file.csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    const { status, message } = httpErrorOf(importErrors, err);
    throw data(message, { status });
  }
}
