import { useTranslation } from "~/i18n/react";
import { Form, Link } from "react-router";
import { isFiltered, SEARCH_MAX, type ItemFilter } from "~/lib/domain/item-filter";
import { ITEM_TYPES } from "~/lib/domain/item-types";

/**
 * The item filter (decision 021): a GET form, so it works without JavaScript and the
 * filter lives in the URL (page links and bookmarks keep it). The server does the filtering.
 */
export function ItemFilterForm({ filter, action, idPrefix }: { filter: ItemFilter; action: string; idPrefix: string }) {
  const { t } = useTranslation();
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <Form method="get" action={action} role="search" aria-labelledby={id("title")} className="card mb-3 item-filter">
      <div className="card-body">
        <h2 id={id("title")} className="h6">
          {t("dashboard.filter.title")}
        </h2>
        <div className="row g-2 align-items-end">
          <div className="col-12 col-md-4">
            <label htmlFor={id("q")} className="form-label">
              {t("dashboard.filter.q")}
            </label>
            <input
              id={id("q")}
              type="search"
              name="q"
              className="form-control"
              defaultValue={filter.q}
              maxLength={SEARCH_MAX}
            />
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor={id("type")} className="form-label">
              {t("dashboard.filter.type")}
            </label>
            <select id={id("type")} name="type" className="form-select" defaultValue={filter.type ?? ""}>
              <option value="">{t("dashboard.filter.anyType")}</option>
              {ITEM_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`itemTypes.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-3">
            <label htmlFor={id("paid")} className="form-label">
              {t("dashboard.filter.paid")}
            </label>
            <select id={id("paid")} name="paid" className="form-select" defaultValue={filter.paid ?? ""}>
              <option value="">{t("dashboard.filter.anyPaid")}</option>
              <option value="paid">{t("dashboard.filter.paidOnly")}</option>
              <option value="unpaid">{t("dashboard.filter.unpaidOnly")}</option>
            </select>
          </div>
          <div className="col-12 col-md-3">
            <div className="form-check mb-2">
              <input
                id={id("lost")}
                type="checkbox"
                name="lost"
                value="1"
                className="form-check-input"
                defaultChecked={filter.lost}
              />
              <label htmlFor={id("lost")} className="form-check-label">
                {t("dashboard.filter.lost")}
              </label>
            </div>
          </div>
          <div className="col-12 d-flex flex-wrap gap-2 align-items-center">
            <button type="submit" className="btn btn-outline-primary">
              {t("dashboard.filter.submit")}
            </button>
            {isFiltered(filter) ? <Link to={action}>{t("dashboard.filter.clear")}</Link> : null}
          </div>
        </div>
      </div>
    </Form>
  );
}
