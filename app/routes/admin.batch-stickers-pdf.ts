import { data } from "react-router";
import { isLang } from "~/i18n/config";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { batchSheet } from "~/server/stickers/batch-files.server";
import { batchErrors } from "~/server/stickers/stickers.http.server";
import type { Route } from "./+types/admin.batch-stickers-pdf";
import { pdfFileResponse } from "~/server/http/file-response.server";

/** GET /admin/batches/{id}/stickers.pdf?lang=sv|en: the batch's A4 sticker sheets (staff only, 404 otherwise). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const lang = new URL(request.url).searchParams.get("lang") ?? "sv";
  if (!isLang(lang)) throw data(null, { status: 400 });
  const pdf = await orErrorPage(batchErrors, batchSheet(await getDeps(), params.id, lang));
  return pdfFileResponse(pdf, "hittad-batch-stickers.pdf");
}
