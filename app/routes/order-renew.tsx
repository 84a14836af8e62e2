import { useTranslation } from "~/i18n/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { CheckoutTerms } from "~/components/CheckoutTerms";
import { FormAlert } from "~/components/form/FormAlert";
import { WithdrawalConsent } from "~/components/WithdrawalConsent";
import { formatDate } from "~/lib/domain/dates";
import { ONE_TIME_METHODS } from "~/lib/domain/one-time-payment";
import { formatPrice } from "~/lib/domain/pricing";
import type { FormMessage } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { httpErrorOf } from "~/server/http/errors.server";
import { formAction } from "~/server/http/form-action.server";
import { orderErrors } from "~/server/orders/orders.http.server";
import { OrderError } from "~/server/orders/order-error.server";
import { getRenewalOffer, startYearRenewal } from "~/server/orders/year-renewal.service.server";
import type { Route } from "./+types/order-renew";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "orderErrors", "orders", "seller", "swish"] };

/**
 * /order/{orderId}/renew: one more year for a year paid at once (decision 056), linked from
 * the reminder mails and the dashboard: exactly that order's items, today's price, the new
 * year starting where the paid one ends; the button opens a one-year checkout. A consumer is
 * told what withdrawing means for a year starting then, and asked for the start only when it
 * falls within the 14 days (the server decides: `offer.withdrawal`).
 */
export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "swish.renew"), { name: "robots", content: "noindex" }];
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const deps = await getDeps();
  // Renewed already, or nothing to renew: the page says so itself, with the way back.
  try {
    const offer = await getRenewalOffer(deps, { userId: user.ref, orderId: params.id });
    return data({ offer, formError: null as FormMessage | null, seller: deps.site.seller });
  } catch (err) {
    if (!(err instanceof OrderError)) throw err;
    const { status, message } = httpErrorOf(orderErrors, err);
    if (err.code === "notFound") throw data(message, { status });
    return data({ offer: null, formError: message, seller: deps.site.seller }, { status });
  }
}

const renewSchema = z.object({ payWith: z.enum(ONE_TIME_METHODS), immediateStart: z.string().optional() });

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const { lang } = context.get(requestContext);
  return formAction(
    request,
    { errors: orderErrors },
    {
      schema: renewSchema,
      invalid: { key: "orderErrors.payWithUnavailable" },
      async handle(input) {
        const immediateStart = input.immediateStart === "yes";
        const args = { userId: user.ref, orderId: params.id, payWith: input.payWith, lang, immediateStart };
        const { url } = await startYearRenewal(await getDeps(), args);
        return redirect(url);
      },
    },
  );
}

export default function OrderRenew({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const { offer, seller } = loaderData;
  const formError = actionData?.formError ?? loaderData.formError;
  const priceLang = offer?.currency === "SEK" ? "sv" : "en";
  const ended = offer ? offer.paidUntil == null || offer.paidUntil <= offer.startsAt - 1000 : false;
  // The year starts where the paid one ends: the withdrawal is told and asked about that day.
  const start = offer ? formatDate(offer.startsAt, lang) : "";
  const withdrawal =
    offer && offer.withdrawal !== "business"
      ? {
          terms: t(`swish.renew.withdrawal.${offer.withdrawal}`, { start }),
          box:
            offer.withdrawal === "afterPeriod" ? null : t(`swish.renew.withdrawal.${offer.withdrawal}Box`, { start }),
        }
      : undefined;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="renew-title">
      <h1 id="renew-title">{t("swish.renew.title")}</h1>
      <FormAlert message={formError} />
      {offer ? (
        <Form method="post" noValidate>
          <p className="lead">
            {t(ended ? "swish.renew.introEnded" : "swish.renew.intro", {
              date: formatDate(offer.paidUntil ?? offer.startsAt, lang),
              count: offer.items.length,
            })}
          </p>
          <ul className="text-break renew-items">
            {offer.items.map((i) => (
              <li key={i.id}>{i.name}</li>
            ))}
          </ul>
          <p>{t("swish.renew.newYear", { start, end: formatDate(offer.endsAt, lang) })}</p>
          <p className="fw-semibold renew-price">
            {t("swish.renew.price", { amount: formatPrice(offer.total / 100, priceLang) })}
          </p>
          {offer.methods.length === 0 ? (
            <p className="alert alert-info">
              {t("swish.renew.noMethods")} <Link to="/order">{t("swish.renew.orderLink")}</Link>
            </p>
          ) : (
            <>
              <fieldset className="mb-3">
                <legend className="h6">{t("swish.renew.method")}</legend>
                {offer.methods.map((m, i) => (
                  <div key={m} className="form-check">
                    <input
                      id={`renew-pay-with-${m}`}
                      type="radio"
                      className="form-check-input"
                      name="payWith"
                      value={m}
                      defaultChecked={i === 0}
                    />
                    <label htmlFor={`renew-pay-with-${m}`} className="form-check-label">
                      {t(`swish.choice.${m}`)}
                    </label>
                  </div>
                ))}
              </fieldset>
              <CheckoutTerms period="year" total={offer.total / 100} lang={priceLang} seller={seller} once />
              <WithdrawalConsent
                consumer={offer.consumer}
                checked={false}
                error={actionData?.fieldErrors.immediateStart}
                texts={withdrawal}
              />
              <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
                {t("swish.renew.submit")}
              </button>
            </>
          )}
        </Form>
      ) : null}
      <p className="mt-3">
        <Link to="/dashboard">{t("swish.renew.back")}</Link>
      </p>
    </section>
  );
}
