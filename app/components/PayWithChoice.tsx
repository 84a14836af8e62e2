import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import type { OneTimeMethod, PayWith } from "~/lib/domain/one-time-payment";
import type { Period } from "~/lib/domain/pricing";

/**
 * The yearly plan's choice of payment (decision 056): the card subscription that renews,
 * or one year paid at once with each one-time method offered in the page's currency
 * (Swish only in kronor). Hidden when none is offered, and for the monthly plan once the
 * page's script runs; without it the choice stays and says it needs yearly payment (the
 * server refuses a one-time method for a month either way).
 */
export function PayWithChoice({
  methods,
  period,
  initial,
  idPrefix = "order",
}: {
  methods: readonly OneTimeMethod[];
  period: Period;
  initial: PayWith;
  idPrefix?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (methods.length === 0 || (hydrated && period !== "year")) return null;
  return (
    <fieldset className="mb-3 order-pay-with">
      <legend className="h5">{t("swish.choice.legend")}</legend>
      {(["card", ...methods] as const).map((m) => (
        <div key={m} className="form-check">
          <input
            id={`${idPrefix}-pay-with-${m}`}
            type="radio"
            className="form-check-input"
            name="payWith"
            value={m}
            defaultChecked={initial === m || (m === "card" && !methods.includes(initial as OneTimeMethod))}
          />
          <label htmlFor={`${idPrefix}-pay-with-${m}`} className="form-check-label">
            {t(`swish.choice.${m}`)}
          </label>
        </div>
      ))}
      {hydrated ? null : <p className="small text-body-secondary mb-0">{t("swish.choice.yearlyOnly")}</p>}
    </fieldset>
  );
}
