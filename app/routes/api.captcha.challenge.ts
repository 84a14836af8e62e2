/** GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the widget. */
import { createAltchaChallenge } from "~/server/captcha/captcha.server";
import { getDeps } from "~/server/deps.server";

export async function loader() {
  const { config } = await getDeps();
  if (config.captcha !== "altcha") return new Response("Not found", { status: 404 });
  return Response.json(await createAltchaChallenge(config), { headers: { "Cache-Control": "no-store" } });
}
