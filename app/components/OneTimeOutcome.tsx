import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import type { Lang } from "~/i18n/config";
import { formatDate } from "~/lib/domain/dates";
import type { PaymentKind } from "~/lib/domain/one-time-payment";

interface OutcomeOrder {
  status: string;
  paymentKind: PaymentKind;
  paymentFailure: "failed" | "declined" | "expired" | null;
}

/**
 * Whether the confirmation page shows a one-time payment's failure (decision 056): the
 * payment failed, was declined or expired (the order is cancelled), or the payer left the
 * checkout, or the last attempt failed while Checkout still takes another.
 */
export function oneTimeFailed(order: OutcomeOrder, left: boolean): boolean {
  if (order.paymentKind === "subscription") return false;
  if (order.status === "cancelled") return order.paymentFailure !== null;
  return order.status === "pending" && (left || order.paymentFailure !== null);
}

/** Why a year paid at once did not go through, that nothing was charged, and the way to try again. */
export function OneTimeFailure({ order, left }: { order: OutcomeOrder; left: boolean }) {
  const { t } = useTranslation();
  const method = order.paymentKind === "subscription" ? "" : t(`swish.methods.${order.paymentKind}`);
  const why =
    order.status === "pending"
      ? left
        ? t("swish.complete.left")
        : t("swish.complete.attemptFailed")
      : order.paymentFailure === "declined"
        ? t("swish.complete.declined")
        : order.paymentFailure === "expired"
          ? t("swish.complete.expired")
          : t("swish.complete.failed", { method });
  return (
    <section className="py-4 col-lg-8" aria-labelledby="complete-title">
      <h1 id="complete-title">{t("swish.complete.failedTitle")}</h1>
      <p role="alert" className="alert alert-warning order-payment-failed">
        {why}
      </p>
      <Link to="/order" className="btn btn-primary">
        {t("swish.complete.tryAgain")}
      </Link>
    </section>
  );
}

/** Under a paid year: that it was paid once with that method and does not renew. */
export function PaidOnceNote({ order, lang }: { order: OutcomeOrder & { paidUntil: number | null }; lang: Lang }) {
  const { t } = useTranslation();
  if (order.paymentKind === "subscription" || order.paidUntil == null) return null;
  return (
    <p className="order-paid-once">
      {t("swish.complete.paidOnce", {
        method: t(`swish.methods.${order.paymentKind}`),
        date: formatDate(order.paidUntil, lang),
      })}
    </p>
  );
}
