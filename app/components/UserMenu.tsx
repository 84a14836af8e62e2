import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { Form, Link, useLocation } from "react-router";
import type { Scope } from "~/lib/domain/organisation-roles";
import type { SessionUser } from "~/lib/domain/session-user";
import { may, staffRole } from "~/lib/domain/permissions";

/**
 * Without a photo from a provider: a silhouette drawn in the page. As an <img> of an SVG file
 * it cost every signed-in page the browser's first isolated SVG document, the dearest part of
 * its first style pass (decision 045).
 */
function DefaultAvatar() {
  return (
    <svg
      viewBox="0 0 64 64"
      width={28}
      height={28}
      className="rounded-circle default-avatar"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="32" cy="32" r="32" fill="#6c757d" />
      <circle cx="32" cy="25" r="11" fill="#fff" />
      <path d="M12 54c3-11 11-16 20-16s17 5 20 16" fill="#fff" />
    </svg>
  );
}

/**
 * The spec's user dropdown: 'Logged in as', name and email, links, Logout. Bootstrap's
 * dropdown CSS and a disclosure button (aria-expanded; Escape and a click outside close
 * it) instead of react-bootstrap's Dropdown and Popper (docs/decisions/009).
 */
export function UserMenu({
  user,
  unreadMessages = 0,
  scopeMenu = null,
}: {
  user: SessionUser;
  unreadMessages?: number;
  /** The active scope and the user's organisations (decision 022); no switch without organisations. */
  scopeMenu?: { scope: Scope; organisations: { id: string; name: string }[] } | null;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const scopes = scopeMenu && scopeMenu.organisations.length > 0 ? scopeMenu : null;
  const activeName = scopes?.scope.kind === "organisation" ? scopes.scope.name : t("layout.scope.personal");
  // Open for one path only: a followed link closes the menu.
  const [open, setOpen] = useState<{ at: string } | null>(null);
  const expanded = open?.at === pathname;
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!expanded) return;
    function onPointerDown(event: PointerEvent) {
      if (!root.current?.contains(event.target as Node)) setOpen(null);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpen(null);
      toggle.current?.focus();
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [expanded]);

  return (
    <div className="dropdown" ref={root}>
      <button
        ref={toggle}
        type="button"
        id="user-menu"
        className="btn btn-outline-dark dropdown-toggle d-flex align-items-center gap-2"
        aria-expanded={expanded}
        aria-controls="user-menu-items"
        onClick={() => setOpen(expanded ? null : { at: pathname })}
      >
        {user.img ? (
          <img src={user.img} alt="" width={28} height={28} className="rounded-circle" referrerPolicy="no-referrer" />
        ) : (
          <DefaultAvatar />
        )}
        <span className="visually-hidden">{t("layout.userMenu")}</span>
        <span aria-hidden="true">{user.name || user.email}</span>
        {scopes ? (
          <span className="badge text-bg-secondary scope-badge">
            <span className="visually-hidden">{t("layout.scope.active")} </span>
            {activeName}
          </span>
        ) : null}
        {unreadMessages > 0 ? (
          <span className="badge rounded-pill text-bg-danger" aria-hidden="true">
            {unreadMessages}
          </span>
        ) : null}
        {unreadMessages > 0 ? (
          <span className="visually-hidden">{t("layout.menu.unread", { count: unreadMessages })}</span>
        ) : null}
      </button>
      <div
        id="user-menu-items"
        className={expanded ? "dropdown-menu dropdown-menu-md-end show" : "dropdown-menu dropdown-menu-md-end"}
        data-bs-popper="static"
      >
        <div className="dropdown-header">
          <span className="d-block small">{t("layout.loggedInAs")}</span>
          <strong className="d-block">{user.name}</strong>
          <span className="d-block small">{user.email}</span>
        </div>
        {/* The switch between accounts is the header's (ScopeSwitcher, decision 038). */}
        {scopes?.scope.kind === "organisation" ? (
          <>
            <hr className="dropdown-divider" />
            <Link className="dropdown-item" to={`/organisations/${scopes.scope.organisationId}`}>
              {t("layout.scope.manage")}
            </Link>
          </>
        ) : null}
        <hr className="dropdown-divider" />
        <Link className="dropdown-item" to="/dashboard">
          {t("layout.menu.dashboard")}
        </Link>
        <Link className="dropdown-item d-flex justify-content-between align-items-center gap-2" to="/messages">
          {t("layout.menu.messages")}
          {unreadMessages > 0 ? (
            <span className="badge rounded-pill text-bg-primary">
              {t("layout.menu.unread", { count: unreadMessages })}
            </span>
          ) : null}
        </Link>
        <Link className="dropdown-item" to="/product/register">
          {t("layout.menu.registerProduct")}
        </Link>
        <Link className="dropdown-item" to="/user/register-adress">
          {t("layout.menu.address")}
        </Link>
        <Link className="dropdown-item" to="/order">
          {t("layout.menu.activate")}
        </Link>
        <Link className="dropdown-item" to="/account">
          {t("layout.menu.account")}
        </Link>
        <Link className="dropdown-item" to="/organisations/new">
          {t("layout.scope.create")}
        </Link>
        {may(staffRole(user), "staffDesk", "use") ? (
          <>
            <Link className="dropdown-item" to="/admin/messages">
              {t("layout.menu.admin")}
            </Link>
            <Link className="dropdown-item" to="/admin/shipments">
              {t("layout.menu.shipments")}
            </Link>
            <Link className="dropdown-item" to="/admin/batches">
              {t("layout.menu.batches")}
            </Link>
            <Link className="dropdown-item" to="/admin/lookup">
              {t("layout.menu.lookup")}
            </Link>
            <Link className="dropdown-item" to="/admin/backups">
              {t("layout.menu.backups")}
            </Link>
          </>
        ) : null}
        <hr className="dropdown-divider" />
        {/* GET /logout only shows 'Logging out...'; that screen signs out with a same-origin POST. */}
        <Form method="get" action="/logout" className="px-3">
          <button type="submit" className="btn btn-outline-danger btn-sm w-100">
            {t("layout.menu.logout")}
          </button>
        </Form>
      </div>
    </div>
  );
}
