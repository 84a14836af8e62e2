/**
 * /dashboard/export.csv: the active scope's items as a CSV download (issue #20 point 3,
 * decision 023), in the user's language. Only the user's own items, or an organisation's
 * for its admins; a member of the organisation gets 404.
 */
import * as cookie from "cookie";
import { data } from "react-router";
import { SCOPE_COOKIE } from "~/lib/organisation-roles";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { importErrors } from "~/server/items/import.http.server";
import { csvScope, exportItems, ImportError } from "~/server/items/import.service.server";
import type { Route } from "./+types/dashboard-export";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const deps = await getDeps();
  try {
    const scope = await csvScope(deps, user.ref, cookie.parse(request.headers.get("Cookie") ?? "")[SCOPE_COOKIE]);
    const file = await exportItems(deps, user.ref, scope, lang);
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
