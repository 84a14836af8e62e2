/**
 * A batch's files for the print shop (decision 036): the A4 sticker sheet the
 * fulfilment sheets use (same QR of {BASE_URL}/{id}, same typeable code) and a CSV of ids,
 * codes and URLs. Voided stickers are left out: they are not to be printed.
 */
import type { Lang } from "~/i18n/config";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import type { Deps } from "../service-deps.server";
import { stickerSheetPdf, stickerUrl } from "../fulfil/sticker-pdf.server";
import { getBatch } from "./stickers.service.server";

export async function batchSheet(deps: Pick<Deps, "db" | "config">, batchId: string, lang: Lang): Promise<Buffer> {
  const { stickers } = await getBatch(deps, batchId);
  return stickerSheetPdf(
    deps.config.baseUrl,
    stickers.filter((s) => s.voidedAt === null).map((s) => ({ id: s.id, code: s.code, lang })),
    deps.config.sms.number,
  );
}

/** id,code,url per printable sticker; every value is alphanumeric or a URL (nothing to escape). */
export async function batchCsv(deps: Pick<Deps, "db" | "config">, batchId: string): Promise<string> {
  const { stickers } = await getBatch(deps, batchId);
  const rows = stickers
    .filter((s) => s.voidedAt === null)
    .map((s) => `${s.id},${formatStickerCode(s.code)},${stickerUrl(deps.config.baseUrl, s.id)}`);
  return ["id,code,url", ...rows].join("\r\n") + "\r\n";
}
