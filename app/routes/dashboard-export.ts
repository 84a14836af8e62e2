/**
 * /dashboard/export.csv: the active scope's items as a CSV download (decision 023), in the
 * user's language. Only the user's own items, or an organisation's
 * for its admins; a member of the organisation gets 404.
 */
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { csvScopeOf } from "~/server/items/import.http.server";
import { exportItems } from "~/server/items/import.service.server";
import type { Route } from "./+types/dashboard-export";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  const { deps, scope } = await csvScopeOf(request, user.ref);
  const file = exportItems(deps, user.ref, scope, lang);
  // Streamed as the client reads it, one page at a time (decision 042): a large
  // organisation's file is never in memory.
  const encoder = new TextEncoder();
  const pages = file.chunks[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pages.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pages.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
