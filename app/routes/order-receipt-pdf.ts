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

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const number = parseReceiptNumber(new URL(request.url).searchParams.get("number"));
  try {
    if (number === "invalid") throw new OrderError("notFound");
    const { pdf, filename } = await getReceiptPdf(await getDeps(), {
      userId: user.ref,
      orderId: params.id,
      number,
      lang: context.get(requestContext).lang,
    });
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${filename}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status } = httpErrorOf(orderErrors, err);
    return new Response("Not found", { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
