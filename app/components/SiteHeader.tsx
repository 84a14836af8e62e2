import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { Link, NavLink, useLocation } from "react-router";
import { BRAND } from "~/lib/domain/brand";
import type { Scope } from "~/lib/domain/organisation-roles";
import type { SessionUser } from "~/lib/domain/session-user";
import { ScopeSwitcher } from "./ScopeSwitcher";
import { UserMenu } from "./UserMenu";

/**
 * The spec's navigation bar: toggler, brand, Support/Companies/Contact us, sign-in or user
 * menu. Bootstrap's navbar CSS with a few lines of React instead of react-bootstrap's
 * Navbar: that library was a quarter of every page's JavaScript (docs/decisions/009).
 */
export function SiteHeader({
  user,
  unreadMessages = 0,
  scopeMenu = null,
}: {
  user: SessionUser | null;
  unreadMessages?: number;
  scopeMenu?: { scope: Scope; organisations: { id: string; name: string }[] } | null;
}) {
  const { t } = useTranslation();
  // Open for one path only: following one of the phone menu's links closes it.
  const { pathname } = useLocation();
  const [open, setOpen] = useState<{ at: string } | null>(null);
  const expanded = open?.at === pathname;
  return (
    <header>
      <div className="navbar navbar-expand-md bg-light border-bottom">
        <div className="container">
          <Link className="navbar-brand" to="/">
            {BRAND}
          </Link>
          {/* Outside the collapsed menu: the active account is seen, and switched, on a phone too. */}
          {user && scopeMenu && scopeMenu.organisations.length > 0 ? <ScopeSwitcher scopeMenu={scopeMenu} /> : null}
          <button
            type="button"
            className={expanded ? "navbar-toggler" : "navbar-toggler collapsed"}
            aria-controls="main-nav"
            aria-expanded={expanded}
            aria-label={t("layout.toggleNavigation")}
            onClick={() => setOpen(expanded ? null : { at: pathname })}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div id="main-nav" className={expanded ? "navbar-collapse collapse show" : "navbar-collapse collapse"}>
            <nav aria-label={t("layout.mainNavigation")} className="navbar-nav me-auto">
              <NavLink className="nav-link" to="/support">
                {t("layout.nav.support")}
              </NavLink>
              <NavLink className="nav-link" to="/companies">
                {t("layout.nav.companies")}
              </NavLink>
              <NavLink className="nav-link" to="/contact">
                {t("layout.nav.contact")}
              </NavLink>
            </nav>
            <div className="d-flex">
              {user ? (
                <UserMenu user={user} unreadMessages={unreadMessages} scopeMenu={scopeMenu} />
              ) : (
                <Link to="/login" className="btn btn-primary">
                  {t("layout.signIn")}
                </Link>
              )}
            </div>
          </div>
        </div>
      </div>
    </header>
  );
}
