/**
 * GET /order/{orderId}/credit-note.pdf: a withdrawn order's credit note (decision 051), for
 * whoever may see its receipts (others and orders without one get 404 alike), in the
 * reader's language, never cached by shared caches.
 */
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { getCreditNotePdf } from "~/server/orders/credit-note.service.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import type { Route } from "./+types/order-credit-note-pdf";
import { pdfFileResponse } from "~/server/http/file-response.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  // A file's address: a refusal is a plain-text 404, not a page (decision 059's exception).
  try {
    const { pdf, filename } = await getCreditNotePdf(await getDeps(), {
      userId: user.ref,
      orderId: params.id,
      lang: context.get(requestContext).lang,
    });
    return pdfFileResponse(pdf, filename);
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status } = httpErrorOf(orderErrors, err);
    return new Response("Not found", { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
