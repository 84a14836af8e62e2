/**
 * A generated PDF as the answer to a download (decision 059): shown in the browser's viewer
 * under its file name, never stored by a cache (receipts, credit notes, sticker sheets and
 * labels are someone's own), never sniffed as another type.
 */
export function pdfFileResponse(pdf: Uint8Array, filename: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${filename}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
