import { useState } from "react";
import { Container, Nav, Navbar } from "react-bootstrap";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useLocation } from "react-router";
import { BRAND } from "~/lib/brand";
import type { SessionUser } from "~/lib/session-user";
import { UserMenu } from "./UserMenu";

/** The spec's navigation bar: toggler, brand, Support/Companies/Contact us, sign-in or user menu. */
export function SiteHeader({ user }: { user: SessionUser | null }) {
  const { t } = useTranslation();
  // Controlled so the toggler announces its state (aria-expanded) and the phone menu
  // closes after following one of its links.
  const { pathname } = useLocation();
  const [open, setOpen] = useState<{ at: string } | null>(null);
  const expanded = open?.at === pathname;
  const setExpanded = (value: boolean) => setOpen(value ? { at: pathname } : null);
  return (
    <header>
      <Navbar expand="md" bg="light" className="border-bottom" expanded={expanded} onToggle={setExpanded}>
        <Container>
          <Navbar.Brand as={Link} to="/">
            {BRAND}
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" aria-expanded={expanded} label={t("layout.toggleNavigation")} />
          <Navbar.Collapse id="main-nav">
            <Nav as="nav" aria-label={t("layout.mainNavigation")} className="me-auto">
              <Nav.Link as={NavLink} to="/support">
                {t("layout.nav.support")}
              </Nav.Link>
              <Nav.Link as={NavLink} to="/companies">
                {t("layout.nav.companies")}
              </Nav.Link>
              <Nav.Link as={NavLink} to="/contact">
                {t("layout.nav.contact")}
              </Nav.Link>
            </Nav>
            <div className="d-flex">
              {user ? (
                <UserMenu user={user} />
              ) : (
                <Link to="/login" className="btn btn-primary">
                  {t("layout.signIn")}
                </Link>
              )}
            </div>
          </Navbar.Collapse>
        </Container>
      </Navbar>
    </header>
  );
}
