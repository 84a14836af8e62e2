import { useTranslation } from "~/i18n/react";
import { Link } from "react-router";
import { BRAND, COPYRIGHT_YEAR } from "~/lib/domain/brand";
import { LanguageLinks } from "./LanguageLinks";

/**
 * The spec's footer: Information, Contact Us and Language columns; copyright 2022. Its links
 * are not discovered ahead (`discover="none"`): every signed-in page would otherwise fetch
 * the router's manifest for six pages rarely opened from there; a click discovers its one.
 */
export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer border-top mt-5 py-4">
      <div className="container">
        <div className="row gy-3">
          <nav className="col-sm-4" aria-labelledby="footer-information">
            <h2 id="footer-information" className="h6">
              {t("layout.footer.information")}
            </h2>
            <ul className="list-unstyled">
              <li>
                <Link to="/cookies" discover="none">
                  {t("layout.footer.cookiePolicy")}
                </Link>
              </li>
              <li>
                <Link to="/terms" discover="none">
                  {t("layout.footer.terms")}
                </Link>
              </li>
              <li>
                <Link to="/privacy" discover="none">
                  {t("layout.footer.privacy")}
                </Link>
              </li>
            </ul>
          </nav>
          <nav className="col-sm-4" aria-labelledby="footer-contact">
            <h2 id="footer-contact" className="h6">
              {t("layout.footer.contactUs")}
            </h2>
            <ul className="list-unstyled">
              <li>
                <Link to="/contact" discover="none">
                  {t("layout.footer.contact")}
                </Link>
              </li>
              <li>
                <Link to="/companies" discover="none">
                  {t("layout.footer.companies")}
                </Link>
              </li>
              <li>
                <Link to="/support#help" discover="none">
                  {t("layout.footer.help")}
                </Link>
              </li>
            </ul>
          </nav>
          <nav className="col-sm-4 text-sm-end" aria-labelledby="footer-language">
            <h2 id="footer-language" className="h6">
              {t("layout.footer.language")}
            </h2>
            <LanguageLinks className="list-unstyled" />
          </nav>
        </div>
        <p className="small text-body-secondary mt-3 mb-0">
          © {COPYRIGHT_YEAR} {BRAND}
        </p>
      </div>
    </footer>
  );
}
