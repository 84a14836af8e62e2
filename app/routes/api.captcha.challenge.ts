/** GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the widget. */
import { altchaChallenge } from "~/server/captcha/captcha.server";
import { getDeps } from "~/server/deps.server";

export async function loader() {
  const challenge = await altchaChallenge(await getDeps());
  if (challenge === null) return new Response("Not found", { status: 404 });
  return Response.json(challenge, { headers: { "Cache-Control": "no-store" } });
}
