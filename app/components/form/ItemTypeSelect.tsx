import { useTranslation } from "~/i18n/react";
import { ITEM_TYPES } from "~/lib/forms/product-fields";

/** The item's type, as a select with its label and translated error: the product form's and the Triple's. */
export function ItemTypeSelect({
  id,
  name,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  defaultValue: string;
  /** A translation key. */
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {t("items.form.prodType")}
      </label>
      <select
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`form-select${error ? " is-invalid" : ""}`}
        defaultValue={defaultValue}
        required
      >
        <option value="" disabled>
          {t("items.form.placeholder")}
        </option>
        {ITEM_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`itemTypes.${type}`)}
          </option>
        ))}
      </select>
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {t(error)}
        </div>
      ) : null}
    </div>
  );
}
