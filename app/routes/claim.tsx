import { data, Link, redirect } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { FormMessage } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf, isErrorOf } from "~/server/http/errors.server";
import { claimErrors } from "~/server/stickers/stickers.http.server";
import { checkClaimable } from "~/server/stickers/stickers.service.server";
import type { Route } from "./+types/claim";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["items"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "items.claim"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * GET /claim?code=… or ?sticker={id} (decision 036): a signed-in owner names a printed
 * sticker by its typed code (any case, spaces, dashes, as /find) or its QR; a claimable one
 * goes on to the product form (/product/register?sticker={id}), which claims it on save.
 * Signed-out visitors sign in or register first and come back here. Wrong, claimed and
 * voided codes get one answer (404), with a way to reach support, and count against the
 * claim limit (429); the owner's own registered code says so, with a link to the item
 * (409, decision 052), and costs nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const params = new URL(request.url).searchParams;
  const typed = params.get("code");
  const sticker = params.get("sticker");
  // Shown back in the field: at most what the field takes, without control characters.
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const code = (typed ?? "").slice(0, 64).replace(/[\u0000-\u001f\u007f]/g, "");
  if (typed === null && sticker === null)
    return data({ code, error: null as FormMessage | null }, { headers: NO_STORE });
  const ref = typed !== null ? { code: typed } : { id: sticker! };
  // A GET form (decision 059's exception): the refusal is shown on this page beside the code typed.
  try {
    const { id } = await checkClaimable(await getDeps(), { userId: user.ref, ip: context.get(requestContext).ip }, ref);
    throw redirect(`/product/register?sticker=${encodeURIComponent(id)}`, { headers: NO_STORE });
  } catch (err) {
    if (!isErrorOf(claimErrors, err)) throw err;
    const { status, message, headers } = httpErrorOf(claimErrors, err);
    return data({ code, error: message as FormMessage | null }, { status, headers: { ...NO_STORE, ...headers } });
  }
}

export default function Claim({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { code } = loaderData;
  const yours = loaderData.error?.key === "items.claim.errors.alreadyYours" ? loaderData.error : null;
  const error = yours ? null : loaderData.error;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="claim-title">
      <h1 id="claim-title">{t("items.claim.pageTitle")}</h1>
      <p>{t("items.claim.intro")}</p>
      <FormAlert message={yours ?? error} variant={yours ? "info" : "danger"} />
      {yours ? (
        // The code is already an item of this owner (decision 052).
        <p className="claim-yours">
          <Link to={`/product/${String(yours.params?.id ?? "")}`}>{t("items.claim.openItem")}</Link>
        </p>
      ) : null}
      {error?.key === "items.claim.errors.notClaimable" ? (
        // A sticker someone else registered gets this answer too (no enumeration): support can help.
        <p className="claim-support">
          {t("items.claim.support")} <Link to="/contact">{t("items.claim.supportLink")}</Link>
        </p>
      ) : null}
      <form method="get" action="/claim" className="claim-form" style={{ maxWidth: "28rem" }}>
        <label htmlFor="claim-code" className="form-label">
          {t("items.claim.label")}
        </label>
        <input
          id="claim-code"
          name="code"
          type="text"
          className={`form-control mb-1${error ? " is-invalid" : ""}`}
          defaultValue={code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby="claim-code-help"
        />
        <div id="claim-code-help" className="form-text mb-3">
          {t("items.claim.help")}
        </div>
        <button type="submit" className="btn btn-primary">
          {t("items.claim.submit")}
        </button>
      </form>
    </section>
  );
}
