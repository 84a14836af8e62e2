/** GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the widget. */
import { createAltchaChallenge } from "~/server/captcha/captcha.server";
import { getRuntime } from "~/server/runtime.server";

export async function loader() {
  const { config } = await getRuntime();
  if (config.captcha !== "altcha") return new Response("Not found", { status: 404 });
  return Response.json(await createAltchaChallenge(config), { headers: { "Cache-Control": "no-store" } });
}
