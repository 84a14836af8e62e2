import { redirect } from "react-router";
import { getT } from "~/i18n/i18n";
import { privacyErrors } from "~/server/account/account.http.server";
import { exportUserData, PrivacyError } from "~/server/account/privacy.service.server";
import { requireUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import type { Route } from "./+types/account-export";

/** The download is a POST (the account page's button); a GET goes back to the page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect("/account");
}

/**
 * "Download my data" (decision 017): one JSON attachment (a ZIP with the photos, decision 035),
 * rate-limited per user.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const { consent, lang } = context.get(requestContext);
  // A download (decision 059's exception): a refusal is translated plain text, since the browser shows no page for it.
  try {
    const file = await exportUserData(
      await getDeps(),
      { id: user.ref, email: user.email.toLowerCase(), emailVerified: user.emailVerified },
      { consentCookie: consent },
    );
    // With photos a ZIP of the JSON and the images (decision 035), else the JSON alone.
    if (file.zip) {
      return new Response(new Uint8Array(file.zip.bytes), {
        headers: {
          "Content-Type": "application/zip",
          "Content-Disposition": `attachment; filename="${file.zip.filename}"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }
    return new Response(file.json, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (err) {
    if (!(err instanceof PrivacyError)) throw err;
    const { status, message, headers } = httpErrorOf(privacyErrors, err);
    const t = getT(lang);
    return new Response(t(message.key, message.params ?? {}), {
      status,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
}
