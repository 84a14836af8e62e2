import { useState } from "react";
import { setFieldValue, useCheckedValue, useFieldValue } from "~/lib/hooks/use-field-value";
import { useTranslation } from "~/i18n/react";
import { Form } from "react-router";
import type { ActionResult } from "~/lib/forms/form";
import { formatPrice, orderTotals, type Period } from "~/lib/domain/pricing";
import { useLang } from "~/lib/hooks/use-lang";
import type { Currency } from "~/lib/domain/currency";
import { APPROX_VALUE_MAX, feeSymbol, formatFee, POLICE_HITTEGODS_URL, suggestFee } from "~/lib/domain/fee";
import { CONTACT_INFO_MAX, FIND_FEE_MAX, NAME_MAX, type ProductFormValues } from "~/lib/forms/product-fields";
import { CONTACT_VISIBILITIES, DEFAULT_VISIBILITY } from "~/lib/domain/relay-limits";
import { Field, TextareaField } from "./form/Field";
import { ItemTypeSelect } from "./form/ItemTypeSelect";
import { FormAlert } from "./form/FormAlert";
import { LiveText } from "./LiveText";
import { PhotoPicker } from "./PhotoPicker";
import { MAX_PHOTOS_PER_ITEM, type PhotoView } from "~/lib/domain/photos";

interface Props {
  values: ProductFormValues;
  /** The action's answer after a refused submit (field errors and the form's message). */
  result?: Pick<ActionResult<ProductFormValues>, "fieldErrors" | "formError"> & { suggested?: boolean };
  /** A paid item: payment choice and price hidden, only 'Update info'. */
  paid: boolean;
  /** Instead of the paid item's note and 'Update info' (a prepaid sticker being registered). */
  paidText?: { note: string; submit: string };
  /** Currency of the finder's fee (the item's own when editing, the page language's when new). */
  currency: Currency;
  submitting?: boolean;
  /**
   * An organisation's admin assigns the item to a member or to nobody (decision
   * 026); absent for personal items and for members, who cannot assign.
   */
  assignment?: { members: { id: string; label: string }[]; assignedTo: string | null } | null;
  /** The assignment the form sent back after a refused submit. */
  assignedValue?: string;
  /** The item's photos so far (editing; decision 035), managed on the item's page. */
  photos?: { itemId: string; name: string; list: PhotoView[] };
}

/**
 * The spec's product form. A plain POST form (works without JavaScript); the server
 * validates with the one schema and sends the messages back next to the fields.
 * noValidate: the server's translated messages are the only ones, in the page's language.
 */
export function ProductForm({
  values,
  result,
  paid,
  paidText,
  currency,
  submitting: saving,
  assignment,
  assignedValue,
  photos,
}: Props) {
  // While chosen photos are being made smaller (decision 035) the form is not sent.
  const [shrinking, setShrinking] = useState(false);
  const submitting = saving || shrinking;
  const feeSign = feeSymbol(currency);
  const { t } = useTranslation();
  // Prices in the visitor's language.
  const lang = useLang();
  // Every field is uncontrolled, so nothing typed before hydration is written over
  // (decision 032); the plan, fee and value shown in prices and hints come from the DOM.
  const payment: Period = useCheckedValue("payment", values.payment === "month" ? "month" : "year") as Period;
  // The package is always single on this form (spec: default single), so pay-now is enabled.
  const totals = orderTotals({ lang, period: payment, count: 1 });
  const errors = result?.fieldErrors ?? {};
  const fee = useFieldValue("product-findFee", values.findFee);
  const approx = useFieldValue("product-approxValue", values.approxValue);
  // "Suggest fee" fills the fee in the browser; a new answer from the server resets it.
  const [seenValues, setSeenValues] = useState(values);
  const [suggestedHere, setSuggestedHere] = useState(false);
  if (values !== seenValues) {
    setSeenValues(values);
    setSuggestedHere(false);
  }
  const approxNumber = /^\d+$/.test(approx.trim()) ? Number(approx.trim()) : null;
  const liveSuggestion = approxNumber !== null && approxNumber <= APPROX_VALUE_MAX ? suggestFee(approxNumber) : null;
  const suggestedShown = (result?.suggested || suggestedHere) && !errors.approxValue;
  const shownFee = /^\d+$/.test(fee) ? formatFee(Number(fee), currency) : fee;

  return (
    // multipart: the photos (decision 035); without JavaScript a plain multipart POST.
    <Form method="post" encType="multipart/form-data" noValidate className="product-form">
      {/* Enter in a field saves, as it did before "Suggest fee" (the first button in the
          form) came in: the browser's implicit submission uses the first submit button. */}
      <button
        type="submit"
        name="intent"
        value={paid ? "update" : "payNow"}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        disabled={submitting}
      >
        {t(paid ? "items.form.update" : "items.form.payNow")}
      </button>
      <FormAlert message={result?.formError} />
      <Field
        id="product-name"
        name="name"
        label={t("items.form.name")}
        error={errors.name}
        help={t("items.form.nameHelp")}
        defaultValue={values.name}
        counter={NAME_MAX}
        required
        autoComplete="off"
      />
      <Field
        id="product-findFee"
        name="findFee"
        label={`${t("items.form.findFee")} (${feeSign})`}
        error={errors.findFee}
        help={t("items.form.findFeeHelp", { sign: feeSign })}
        defaultValue={values.findFee}
        type="number"
        inputMode="numeric"
        min={0}
        max={FIND_FEE_MAX}
        step={1}
        required
      />
      {/* Decision 019: about 10 % of the value, the Police's guidance; the value stays private. */}
      <div className="mb-3 fee-suggest">
        <Field
          id="product-approxValue"
          name="approxValue"
          className="mb-2"
          label={t("items.form.approxValue", { sign: feeSign })}
          error={errors.approxValue}
          help={
            <>
              {t("items.form.approxValueHelp")}{" "}
              <a href={POLICE_HITTEGODS_URL} target="_blank" rel="noopener noreferrer">
                {t("items.form.policeSource")}
              </a>
            </>
          }
          defaultValue={values.approxValue}
          onChange={() => setSuggestedHere(false)}
          type="number"
          inputMode="numeric"
          min={0}
          max={APPROX_VALUE_MAX}
          step={1}
        />
        <button
          type="submit"
          name="intent"
          value="suggest"
          className="btn btn-outline-secondary btn-sm"
          disabled={submitting}
          onClick={(e) => {
            // With JavaScript the suggestion is filled in here; without, the server does it.
            if (liveSuggestion === null) return;
            e.preventDefault();
            setFieldValue("product-findFee", String(liveSuggestion));
            setSuggestedHere(true);
          }}
        >
          {t("items.form.suggestFee")}
        </button>
        <p className="form-text mb-0" role="status" aria-live="polite">
          {suggestedShown ? (
            <LiveText text={t("items.form.suggested", { fee: shownFee })} values={[shownFee]} />
          ) : liveSuggestion !== null && liveSuggestion > 0 ? (
            <LiveText
              text={t("items.form.suggestionPreview", { fee: formatFee(liveSuggestion, currency) })}
              values={[formatFee(liveSuggestion, currency)]}
            />
          ) : null}
        </p>
      </div>
      <ItemTypeSelect id="product-prodType" name="prodType" defaultValue={values.prodType} error={errors.prodType} />
      {assignment ? (
        <div className="mb-3">
          <label htmlFor="product-assignedTo" className="form-label">
            {t("items.assign.label")}
          </label>
          <select
            id="product-assignedTo"
            name="assignedTo"
            className="form-select"
            defaultValue={assignedValue ?? assignment.assignedTo ?? ""}
            aria-describedby="product-assignedTo-help"
          >
            <option value="">{t("items.assign.nobody")}</option>
            {assignment.members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
          <div id="product-assignedTo-help" className="form-text">
            {t("items.assign.help")}
          </div>
        </div>
      ) : null}
      <TextareaField
        id="product-contactInfo"
        name="contactInfo"
        label={t("items.form.contactInfo")}
        error={errors.contactInfo}
        help={
          <>
            {t("items.form.contactInfoHelp")} <a href="/privacy#owners">{t("items.form.privacy")}</a>
          </>
        }
        defaultValue={values.contactInfo}
        rows={4}
        counter={CONTACT_INFO_MAX}
        required
      />
      <div className="form-check mb-3">
        <input
          className="form-check-input"
          type="checkbox"
          name="scanAlerts"
          id="product-scanAlerts"
          defaultChecked={values.scanAlerts === "on"}
          aria-describedby="product-scanAlerts-help"
        />
        <label className="form-check-label" htmlFor="product-scanAlerts">
          {t("scans.form.scanAlerts")}
        </label>
        <div id="product-scanAlerts-help" className="form-text">
          {t("scans.form.scanAlertsHelp")}
        </div>
      </div>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t("relay.visibility.legend")}</legend>
        {CONTACT_VISIBILITIES.map((v) => (
          <div className="form-check" key={v}>
            <input
              className={`form-check-input${errors.contactVisibility ? " is-invalid" : ""}`}
              type="radio"
              name="contactVisibility"
              id={`product-visibility-${v}`}
              value={v}
              defaultChecked={(values.contactVisibility || DEFAULT_VISIBILITY) === v}
              aria-describedby={`product-visibility-${v}-help`}
            />
            <label className="form-check-label" htmlFor={`product-visibility-${v}`}>
              {t(`relay.visibility.${v}`)}
            </label>
            <div id={`product-visibility-${v}-help`} className="form-text mt-0">
              {t(`relay.visibility.${v}Help`)}
            </div>
          </div>
        ))}
        {errors.contactVisibility ? (
          <div className="invalid-feedback d-block">{t(errors.contactVisibility)}</div>
        ) : null}
      </fieldset>
      <fieldset className="mb-3 product-photos">
        <legend className="form-label fs-6">{t("photos.form.legend")}</legend>
        {photos?.list.length ? (
          <>
            <ul className="list-unstyled d-flex flex-wrap gap-2 mb-1" aria-label={t("photos.form.current")}>
              {photos.list.map((p, i) => (
                <li key={p.id}>
                  <img
                    src={p.thumb.url}
                    width={p.thumb.width}
                    height={p.thumb.height}
                    alt={t("photos.manage.alt", { n: i + 1, name: photos.name })}
                    className="rounded border photo-thumb"
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
            <p className="mb-2">
              <a href={`/product/${photos.itemId}#photos`}>{t("photos.form.manage")}</a>
            </p>
          </>
        ) : null}
        <PhotoPicker id="product-photo" left={MAX_PHOTOS_PER_ITEM - (photos?.list.length ?? 0)} onBusy={setShrinking} />
      </fieldset>

      {paid ? (
        <>
          <p className="text-body-secondary">{paidText?.note ?? t("items.form.paidNote")}</p>
          <button type="submit" name="intent" value="update" className="btn btn-primary" disabled={submitting}>
            {paidText?.submit ?? t("items.form.update")}
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
                  defaultChecked={(values.payment === "month" ? "month" : "year") === p}
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
          <p className="fs-5 item-form-total" aria-live="polite">
            <LiveText
              text={t("items.form.total", { price: formatPrice(totals.total, lang) })}
              values={[formatPrice(totals.total, lang)]}
            />
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
