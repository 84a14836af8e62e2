import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { Lang } from "~/i18n/config";
import { formatPrice, orderTotals, type Period } from "~/lib/pricing";
import {
  CONTACT_INFO_MAX,
  FIND_FEE_MAX,
  NAME_MAX,
  PROD_TYPES,
  type ProductFormErrors,
  type ProductFormValues,
} from "~/lib/product-form";

interface Props {
  values: ProductFormValues;
  errors?: ProductFormErrors;
  /** A paid item: payment choice and price hidden, only 'Update info'. */
  paid: boolean;
  /** Language of the prices shown (the visitor's). */
  lang: Lang;
  /** Currency sign of the finder's fee (the item's own currency when editing). */
  feeSign: string;
  submitting?: boolean;
}

/**
 * The spec's product form. A plain POST form (works without JavaScript); the server
 * validates with the one schema and sends the messages back next to the fields.
 * noValidate: the server's translated messages are the only ones, in the page's language.
 */
export function ProductForm({ values, errors = {}, paid, lang, feeSign, submitting }: Props) {
  const { t } = useTranslation();
  const [payment, setPayment] = useState<Period>(values.payment === "month" ? "month" : "year");
  // The package is always single on this form (spec: default single), so pay-now is enabled.
  const totals = orderTotals({ lang, period: payment, count: 1 });
  const hasErrors = Object.keys(errors).length > 0;

  const field = (name: keyof ProductFormValues) => ({
    id: `product-${name}`,
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby":
      [errors[name] ? `product-${name}-error` : "", name === "prodType" ? "" : `product-${name}-help`]
        .join(" ")
        .trim() || undefined,
  });
  const error = (name: keyof ProductFormValues) =>
    errors[name] ? (
      <div id={`product-${name}-error`} className="invalid-feedback d-block">
        {t(errors[name]!)}
      </div>
    ) : null;

  return (
    <Form method="post" noValidate className="product-form" aria-describedby={hasErrors ? "product-errors" : undefined}>
      {hasErrors ? (
        <div id="product-errors" className="alert alert-danger" role="alert">
          {t("items.form.errorSummary")}
        </div>
      ) : null}
      <div className="mb-3">
        <label htmlFor="product-name" className="form-label">
          {t("items.form.name")}
        </label>
        <input
          {...field("name")}
          className={`form-control${errors.name ? " is-invalid" : ""}`}
          defaultValue={values.name}
          maxLength={NAME_MAX}
          required
          autoComplete="off"
        />
        <div id="product-name-help" className="form-text">
          {t("items.form.nameHelp")}
        </div>
        {error("name")}
      </div>
      <div className="mb-3">
        <label htmlFor="product-findFee" className="form-label">
          {t("items.form.findFee")} ({feeSign})
        </label>
        <input
          {...field("findFee")}
          className={`form-control${errors.findFee ? " is-invalid" : ""}`}
          defaultValue={values.findFee}
          type="number"
          inputMode="numeric"
          min={0}
          max={FIND_FEE_MAX}
          step={1}
          required
        />
        <div id="product-findFee-help" className="form-text">
          {t("items.form.findFeeHelp", { sign: feeSign })}
        </div>
        {error("findFee")}
      </div>
      <div className="mb-3">
        <label htmlFor="product-prodType" className="form-label">
          {t("items.form.prodType")}
        </label>
        <select
          {...field("prodType")}
          className={`form-select${errors.prodType ? " is-invalid" : ""}`}
          defaultValue={values.prodType}
          required
        >
          <option value="" disabled>
            {t("items.form.placeholder")}
          </option>
          {PROD_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`items.types.${type}`)}
            </option>
          ))}
        </select>
        {error("prodType")}
      </div>
      <div className="mb-3">
        <label htmlFor="product-contactInfo" className="form-label">
          {t("items.form.contactInfo")}
        </label>
        <textarea
          {...field("contactInfo")}
          className={`form-control${errors.contactInfo ? " is-invalid" : ""}`}
          defaultValue={values.contactInfo}
          rows={4}
          maxLength={CONTACT_INFO_MAX}
          required
        />
        <div id="product-contactInfo-help" className="form-text">
          {t("items.form.contactInfoHelp")}
        </div>
        {error("contactInfo")}
      </div>

      {paid ? (
        <>
          <p className="text-body-secondary">{t("items.form.paidNote")}</p>
          <button type="submit" name="intent" value="update" className="btn btn-primary" disabled={submitting}>
            {t("items.form.update")}
          </button>
        </>
      ) : (
        <>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t("items.form.payment")}</legend>
            {(["month", "year"] as const).map((p) => (
              <div className="form-check" key={p}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="payment"
                  id={`product-payment-${p}`}
                  value={p}
                  checked={payment === p}
                  onChange={() => setPayment(p)}
                />
                <label className="form-check-label" htmlFor={`product-payment-${p}`}>
                  {t(`items.form.${p}`)}
                  {p === "month" ? <span aria-hidden="true">*</span> : null}
                  {" — "}
                  {t(p === "month" ? "items.form.perMonth" : "items.form.perYear", {
                    price: formatPrice(orderTotals({ lang, period: p, count: 1 }).total, lang),
                  })}
                </label>
              </div>
            ))}
            <div className="form-text">{t("items.form.minimumTerm")}</div>
          </fieldset>
          <p className="fs-5" aria-live="polite">
            {t("items.form.total", { price: formatPrice(totals.total, lang) })}
          </p>
          <div className="d-flex flex-wrap gap-2">
            <button type="submit" name="intent" value="payNow" className="btn btn-primary" disabled={submitting}>
              {t("items.form.payNow")}
            </button>
            <button
              type="submit"
              name="intent"
              value="payLater"
              className="btn btn-outline-primary"
              disabled={submitting}
            >
              {t("items.form.payLater")}
            </button>
          </div>
        </>
      )}
    </Form>
  );
}
