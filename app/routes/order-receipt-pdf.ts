/**
 * GET /order/{orderId}/receipt.pdf[?number=N]: the receipt as a PDF (decision 016), owner
 * only (others get 404 alike), in the page language, never cached by shared caches.
 */
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { getReceiptPdf, parseReceiptNumber } from "~/server/orders/billing.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import { requestContext } from "~/server/context";
import type { Route } from "./+types/order-receipt-pdf";
import { pdfFileResponse } from "~/server/http/file-response.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const number = parseReceiptNumber(new URL(request.url).searchParams.get("number"));
  // A file's address: a refusal is a plain-text 404, not a page (decision 059's exception).
  try {
    if (number === "invalid") throw new OrderError("notFound");
    const { pdf, filename } = await getReceiptPdf(await getDeps(), {
      userId: user.ref,
      orderId: params.id,
      number,
      lang: context.get(requestContext).lang,
    });
    return pdfFileResponse(pdf, filename);
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status } = httpErrorOf(orderErrors, err);
    return new Response("Not found", { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
