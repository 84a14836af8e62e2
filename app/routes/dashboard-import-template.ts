/**
 * /dashboard/import/template.csv: an empty import file with the columns and two example
 * rows, in the user's language and with its separator (decision 023).
 */
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { csvScopeOf } from "~/server/items/import.http.server";
import { importTemplate } from "~/server/items/import.service.server";
import type { Route } from "./+types/dashboard-import-template";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const { scope } = await csvScopeOf(request, user.ref);
  const file = importTemplate(scope, lang);
  return new Response(file.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
