import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import { Field } from "./form/Field";

/**
 * The test provider's Swish (decision 056): the payer's mobile number, then "the app"
 * approves or declines; no money moves. Klarna's test is one button. Plain form posts; a
 * refused number takes the focus back (Field does it after every refusal).
 */
export function TestOneTimeStep({
  orderId,
  method,
  phone,
  phoneError,
  busy,
}: {
  orderId: string;
  method: "swish" | "klarna";
  phone: string;
  /** Translation key of the number's error. */
  phoneError: string | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation();
  // "Cancel" leaves as Stripe's cancel_url does (decision 056): the order's page says nothing was charged.
  const left = `/order/complete/${orderId}?left=1`;
  if (method === "klarna") {
    return (
      <Form method="post" className="d-flex flex-wrap gap-2 mt-3">
        <button type="submit" name="intent" value="pay" className="btn btn-primary" disabled={busy}>
          {t("swish.test.klarna")}
        </button>
        <Link to={left} className="btn btn-outline-secondary">
          {t("orders.checkout.cancel")}
        </Link>
      </Form>
    );
  }
  return (
    <section className="card mt-3 test-swish" aria-labelledby="test-swish-title">
      <div className="card-body">
        <h2 id="test-swish-title" className="h5">
          {t("swish.test.title")}
        </h2>
        <p>{t("swish.test.intro")}</p>
        <Form method="post" noValidate>
          <Field
            id="test-swish-phone"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            label={t("swish.test.phone")}
            defaultValue={phone}
            error={phoneError}
            maxLength={20}
            required
          />
          <div className="d-flex flex-wrap gap-2">
            <button type="submit" name="intent" value="pay" className="btn btn-success" disabled={busy}>
              {t("swish.test.approve")}
            </button>
            <button type="submit" name="intent" value="decline" className="btn btn-outline-danger" disabled={busy}>
              {t("swish.test.decline")}
            </button>
            <Link to={left} className="btn btn-outline-secondary">
              {t("orders.checkout.cancel")}
            </Link>
          </div>
        </Form>
      </div>
    </section>
  );
}
