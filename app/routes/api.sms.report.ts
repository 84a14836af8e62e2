/**
 * POST /api/sms/report/{token}: 46elks' delivery report for one SMS (decision 033). The
 * token in the path is the SMS's own secret (46elks does not sign reports); a report
 * without a matching one changes nothing and gets 404. The body is 46elks' form
 * (id, status = sent | delivered | failed, delivered): each answered 204 (decision 055). Redacted from the request log (secret-urls.server.ts).
 */
import { recordSmsReport } from "~/server/alerts/alerts.service.server";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/api.sms.report";

export async function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
  }
  let form: URLSearchParams;
  // A provider's webhook, not a form (decision 059's exception): an unreadable body is a plain 400.
  try {
    form = new URLSearchParams(await request.text());
  } catch {
    return new Response("Bad request", { status: 400 });
  }
  const matched = await recordSmsReport(await getDeps(), params.token, {
    status: form.get("status"),
    delivered: form.get("delivered"),
  });
  return new Response(null, { status: matched ? 204 : 404 });
}
