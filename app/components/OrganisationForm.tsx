/** The organisation details form (decision 022): /organisations/new and the admin's edit section. */
import { useTranslation } from "~/i18n/react";
import { Form } from "react-router";
import { Field, TextareaField } from "~/components/form/Field";
import { countryOptions, HOME_COUNTRY } from "~/lib/domain/countries";
import { DESK_CONTACT_MAX, ORG_NAME_MAX, ORG_TEXT_MAX } from "~/lib/forms/organisation-fields";
import { useLang } from "~/lib/hooks/use-lang";

type Values = Partial<Record<string, string>>;

export function OrganisationForm({
  values,
  errors,
  submit,
  intent,
}: {
  values: Values;
  errors: Partial<Record<string, string>>;
  submit: string;
  intent?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const field = (name: string, extra: Record<string, unknown> = {}) => ({
    id: `org-${name}`,
    name,
    label: t(`organisations.fields.${name}`),
    defaultValue: values[name] ?? "",
    error: errors[name],
    ...extra,
  });
  return (
    <Form method="post" noValidate>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <Field {...field("name", { required: true, maxLength: ORG_NAME_MAX, autoComplete: "organization" })} />
      <Field
        {...field("orgNumber", {
          required: true,
          maxLength: 20,
          help: t("organisations.help.orgNumber"),
        })}
      />
      <Field {...field("billingEmail", { type: "email", required: true, maxLength: 254, autoComplete: "email" })} />
      <fieldset className="mb-3">
        <legend className="fs-6 fw-semibold">{t("organisations.invoiceAddress")}</legend>
        <Field
          {...field("invoiceStreet", { required: true, maxLength: ORG_TEXT_MAX, autoComplete: "street-address" })}
        />
        <div className="row g-2">
          <Field
            {...field("invoicePostcode", {
              required: true,
              maxLength: 20,
              autoComplete: "postal-code",
              className: "col-sm-4 mb-3",
            })}
          />
          <Field
            {...field("invoiceCity", {
              required: true,
              maxLength: ORG_TEXT_MAX,
              autoComplete: "address-level2",
              className: "col-sm-8 mb-3",
            })}
          />
        </div>
        {/* The same country select as the personal address (decision 057). */}
        <div className="mb-3">
          <label htmlFor="org-invoiceCountry" className="form-label">
            {t("organisations.fields.invoiceCountry")}
          </label>
          <select
            id="org-invoiceCountry"
            name="invoiceCountry"
            className={`form-select${errors.invoiceCountry ? " is-invalid" : ""}`}
            defaultValue={(values.invoiceCountry ?? "").toUpperCase() || HOME_COUNTRY}
            autoComplete="country"
            aria-invalid={errors.invoiceCountry ? true : undefined}
            aria-describedby={errors.invoiceCountry ? "org-invoiceCountry-error" : undefined}
            required
          >
            {countryOptions(lang).map((c) => (
              // Names come from each runtime's CLDR data, and Node's and the browser's differ for
              // a few ("Hong Kong SAR China" / "Hong Kong"): keep the server's text when hydrating
              // instead of re-rendering the page from its root (decision 045).
              <option key={c.code} value={c.code} suppressHydrationWarning>
                {c.name}
              </option>
            ))}
          </select>
          {errors.invoiceCountry ? (
            <div id="org-invoiceCountry-error" className="invalid-feedback d-block">
              {t(errors.invoiceCountry)}
            </div>
          ) : null}
        </div>
      </fieldset>
      <Field {...field("vatNumber", { maxLength: 20, help: t("organisations.help.vatNumber") })} />
      <TextareaField
        {...field("deskContact", {
          required: true,
          rows: 3,
          counter: DESK_CONTACT_MAX,
          help: t("organisations.help.deskContact"),
        })}
      />
      <button type="submit" className="btn btn-primary">
        {submit}
      </button>
    </Form>
  );
}
