import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/react";

/**
 * The right of withdrawal beside the checkout's terms (decision 041). A consumer (personal
 * order) is told of the 14 days and asked, with a box the server requires, for the service
 * to start at once; an organisation's order is a business purchase and is told why it has
 * no right of withdrawal. A renewal (decision 056) brings its own `texts`: its year starts
 * where the paid one ends, and when that is after the 14 days there is no box (`box: null`).
 */
export function WithdrawalConsent({
  consumer,
  checked,
  error,
  texts,
}: {
  consumer: boolean;
  checked: boolean;
  /** Translation key of the field's error (the box was not ticked). */
  error: string | undefined;
  /** Translated: what the consumer is told, and the box's label (null: nothing to ask). */
  texts?: { terms: string; box: string | null };
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLInputElement>(null);
  // After a refused submit the focus goes to the box that needs ticking.
  useEffect(() => {
    if (error) box.current?.focus();
  }, [error]);
  if (!consumer) {
    return (
      <p className="small text-body-secondary order-withdrawal-business" data-testid="withdrawal-business">
        {t("orders.withdrawal.businessNote")}
      </p>
    );
  }
  return (
    <section className="order-withdrawal mb-3" aria-labelledby="order-withdrawal-title">
      <h2 id="order-withdrawal-title" className="h6 mb-1">
        {t("orders.withdrawal.title")}
      </h2>
      <p className="mb-2" data-testid="withdrawal-terms">
        {texts ? texts.terms : t("orders.withdrawal.checkout")}
      </p>
      {texts?.box === null ? null : (
        <div className="form-check">
          <input
            ref={box}
            id="order-immediate-start"
            type="checkbox"
            className={`form-check-input${error ? " is-invalid" : ""}`}
            name="immediateStart"
            value="yes"
            defaultChecked={checked}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "order-immediate-start-error" : undefined}
          />
          <label htmlFor="order-immediate-start" className="form-check-label">
            {texts ? texts.box : t("orders.withdrawal.immediateStart")}
          </label>
          {error ? (
            <div id="order-immediate-start-error" className="invalid-feedback d-block">
              {t(error)}
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}
