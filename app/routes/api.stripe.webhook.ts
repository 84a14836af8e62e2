/**
 * POST /api/stripe/webhook: Stripe's signed events. The body is read raw here (no body
 * parser runs before React Router), since the signature covers the exact bytes.
 * 400 for a bad or missing signature (nothing changes); 200 once applied or known.
 */
import { getDeps } from "~/server/deps.server";
import { logger } from "~/server/logger.server";
import {
  handleStripeEvent,
  stripeWebhookEnabled,
  verifyStripeEvent,
  WebhookSignatureError,
} from "~/server/orders/stripe-webhook.server";
import type { Route } from "./+types/api.stripe.webhook";

export async function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: Route.ActionArgs) {
  const deps = await getDeps();
  if (request.method !== "POST") {
    return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
  }
  if (!stripeWebhookEnabled(deps)) return new Response("Not found", { status: 404 });
  const raw = Buffer.from(await request.arrayBuffer());
  let event;
  // A provider's webhook, not a form (decision 059's exception): a bad signature is logged and refused.
  try {
    event = verifyStripeEvent(deps, raw, request.headers.get("stripe-signature"));
  } catch (err) {
    if (!(err instanceof WebhookSignatureError)) throw err;
    logger.warn({ reason: err.message }, "stripe webhook: signature refused");
    return Response.json({ error: "invalid signature" }, { status: 400 });
  }
  const result = await handleStripeEvent(deps, event);
  logger.info({ event: event.id, type: event.type, result }, "stripe webhook");
  return Response.json({ received: true, result });
}
