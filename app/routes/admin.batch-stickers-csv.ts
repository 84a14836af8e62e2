import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { batchCsv } from "~/server/stickers/batch-files.server";
import { batchErrors } from "~/server/stickers/stickers.http.server";
import type { Route } from "./+types/admin.batch-stickers-csv";

/** GET /admin/batches/{id}/stickers.csv: id, code and URL of each printable sticker (staff only). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const csv = await orErrorPage(batchErrors, batchCsv(await getDeps(), params.id));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="hittad-batch-stickers.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
