/**
 * POST /webhooks/46elks/sms?secret=…: an SMS to SMS_NUMBER, as 46elks' sms_url (decision
 * 055). A wrong secret, or no SMS_NUMBER, is 404; the answer's body, when there is one, is
 * the reply SMS 46elks sends back from SMS_NUMBER. Redacted from the request log
 * (secret-urls.server.ts).
 */
import { getDeps } from "~/server/deps.server";
import { receiveElksSms } from "~/server/sms-finder/sms-finder.service.server";
import type { Route } from "./+types/webhooks.46elks.sms";

const notAllowed = () => new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });

export async function loader() {
  return notAllowed();
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  const secret = new URL(request.url).searchParams.get("secret");
  const form = new URLSearchParams(await request.text().catch(() => ""));
  const answer = await receiveElksSms(await getDeps(), secret, form);
  if (answer.status !== 200) return new Response(null, { status: answer.status });
  return new Response(answer.reply, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
