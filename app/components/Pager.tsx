import { useTranslation } from "~/i18n/react";
import { Link } from "react-router";
import { pagerPages, type PageInfo } from "~/lib/domain/item-filter";

/**
 * Page links (decision 021): plain links with ?page= (and the filter), so they work without
 * JavaScript; the current page is marked with aria-current. Nothing when one page.
 */
export function Pager({ info, hrefFor, label }: { info: PageInfo; hrefFor: (page: number) => string; label: string }) {
  const { t } = useTranslation();
  if (info.pageCount <= 1) return null;
  const { page, pageCount } = info;
  return (
    <nav aria-label={label} className="my-3">
      {/* Buttons, not Bootstrap's .pagination: the stylesheet carries only the components in use. */}
      <ul className="list-unstyled d-flex flex-wrap gap-1 mb-0 pager">
        {page > 1 ? (
          <li>
            <Link className="btn btn-sm btn-outline-primary" to={hrefFor(page - 1)} rel="prev">
              {t("common.pager.previous")}
            </Link>
          </li>
        ) : null}
        {pagerPages(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} className="px-1 align-self-center" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                className={`btn btn-sm ${p === page ? "btn-primary" : "btn-outline-primary"}`}
                to={hrefFor(p)}
                aria-current={p === page ? "page" : undefined}
                aria-label={t("common.pager.page", { page: p })}
              >
                {p}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link className="btn btn-sm btn-outline-primary" to={hrefFor(page + 1)} rel="next">
              {t("common.pager.next")}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
