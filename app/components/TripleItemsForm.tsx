/**
 * The Triple's three items on one page (decision 038): three blocks of the product form's
 * essential fields, named `name_1`, `name_2`… A plain POST form (works without JavaScript);
 * the server checks every block with the product form's schema and saves all three or none,
 * and a refusal comes back with each block as typed and its own messages.
 */
import { useTranslation } from "~/i18n/react";
import { Form } from "react-router";
import type { Currency } from "~/lib/domain/currency";
import { APPROX_VALUE_MAX, feeSymbol } from "~/lib/domain/fee";
import { CONTACT_INFO_MAX, FIND_FEE_MAX, NAME_MAX, type ProductFormErrors } from "~/lib/forms/product-fields";
import type { ProductFormValues } from "~/lib/forms/product-fields";
import { CONTACT_VISIBILITIES, DEFAULT_VISIBILITY } from "~/lib/domain/relay-limits";
import { Field, TextareaField } from "./form/Field";
import { ItemTypeSelect } from "./form/ItemTypeSelect";
import { FormAlert } from "./form/FormAlert";

const BLOCKS = [1, 2, 3] as const;

interface Props {
  result?: { blocks: ProductFormValues[]; blockErrors: ProductFormErrors[]; formError: { key: string } } | undefined;
  currency: Currency;
  submitting: boolean;
}

export function TripleItemsForm({ result, currency, submitting }: Props) {
  const { t } = useTranslation();
  const sign = feeSymbol(currency);
  return (
    <section className="py-4 col-lg-8">
      <h1>{t("items.triple.title")}</h1>
      <p>{t("items.triple.intro")}</p>
      <Form method="post" action="/product/register?package=tripple" noValidate className="triple-form">
        <input type="hidden" name="form" value="tripple" />
        <FormAlert message={result?.formError} />
        {BLOCKS.map((n, i) => (
          <Block key={n} n={n} values={result?.blocks[i]} errors={result?.blockErrors[i] ?? {}} sign={sign} />
        ))}
        <button type="submit" className="btn btn-primary" disabled={submitting}>
          {t("items.triple.submit")}
        </button>
      </Form>
    </section>
  );
}

function Block({
  n,
  values,
  errors,
  sign,
}: {
  n: number;
  values: ProductFormValues | undefined;
  errors: ProductFormErrors;
  sign: string;
}) {
  const { t } = useTranslation();
  const id = (field: string) => `triple-${n}-${field}`;
  const name = (field: string) => `${field}_${n}`;
  const visibility = values?.contactVisibility || DEFAULT_VISIBILITY;
  return (
    <fieldset className="border rounded p-3 mb-4 triple-block">
      <legend className="float-none w-auto px-2 fs-5 mb-0">{t("items.triple.block", { n })}</legend>
      <Field
        id={id("name")}
        name={name("name")}
        label={t("items.form.name")}
        error={errors.name}
        defaultValue={values?.name ?? ""}
        counter={NAME_MAX}
        autoComplete="off"
        required
      />
      <ItemTypeSelect
        id={id("prodType")}
        name={name("prodType")}
        defaultValue={values?.prodType ?? ""}
        error={errors.prodType}
      />
      <div className="row g-3 mb-3">
        <Field
          id={id("findFee")}
          name={name("findFee")}
          className="col-sm-6"
          label={`${t("items.form.findFee")} (${sign})`}
          error={errors.findFee}
          defaultValue={values?.findFee ?? ""}
          type="number"
          inputMode="numeric"
          min={0}
          max={FIND_FEE_MAX}
          step={1}
          required
        />
        <Field
          id={id("approxValue")}
          name={name("approxValue")}
          className="col-sm-6"
          label={t("items.form.approxValue", { sign })}
          error={errors.approxValue}
          defaultValue={values?.approxValue ?? ""}
          type="number"
          inputMode="numeric"
          min={0}
          max={APPROX_VALUE_MAX}
          step={1}
        />
      </div>
      <TextareaField
        id={id("contactInfo")}
        name={name("contactInfo")}
        label={t("items.form.contactInfo")}
        error={errors.contactInfo}
        defaultValue={values?.contactInfo ?? ""}
        rows={2}
        counter={CONTACT_INFO_MAX}
        required
      />
      <fieldset>
        <legend className="form-label fs-6">{t("relay.visibility.legend")}</legend>
        {CONTACT_VISIBILITIES.map((v) => (
          <div className="form-check" key={v}>
            <input
              className={`form-check-input${errors.contactVisibility ? " is-invalid" : ""}`}
              type="radio"
              name={name("contactVisibility")}
              id={id(`visibility-${v}`)}
              value={v}
              defaultChecked={visibility === v}
            />
            <label className="form-check-label" htmlFor={id(`visibility-${v}`)}>
              {t(`relay.visibility.${v}`)}
            </label>
          </div>
        ))}
        {errors.contactVisibility ? (
          <div className="invalid-feedback d-block">{t(errors.contactVisibility)}</div>
        ) : null}
      </fieldset>
    </fieldset>
  );
}
