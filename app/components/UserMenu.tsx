import { Dropdown } from "react-bootstrap";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { SessionUser } from "~/lib/session-user";

const DEFAULT_AVATAR = "/images/avatar-default.svg";

/** The spec's user dropdown: 'Logged in as', name and email, links, Logout. */
export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  return (
    <Dropdown align="end">
      <Dropdown.Toggle variant="outline-dark" id="user-menu" className="d-flex align-items-center gap-2">
        <img
          src={user.img || DEFAULT_AVATAR}
          alt=""
          width={28}
          height={28}
          className="rounded-circle"
          referrerPolicy="no-referrer"
        />
        <span className="visually-hidden">{t("layout.userMenu")}</span>
        <span aria-hidden="true">{user.name || user.email}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu>
        {/* Not Dropdown.Header: its role="heading" without a level fails axe (aria-required-attr). */}
        <div className="dropdown-header">
          <span className="d-block small">{t("layout.loggedInAs")}</span>
          <strong className="d-block">{user.name}</strong>
          <span className="d-block small">{user.email}</span>
        </div>
        <Dropdown.Divider />
        <Dropdown.Item as={Link} to="/dashboard">
          {t("layout.menu.dashboard")}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/product/register">
          {t("layout.menu.registerProduct")}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/user/register-adress">
          {t("layout.menu.address")}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/order">
          {t("layout.menu.activate")}
        </Dropdown.Item>
        {user.isAdmin ? (
          <Dropdown.Item as={Link} to="/admin/messages">
            {t("layout.menu.admin")}
          </Dropdown.Item>
        ) : null}
        <Dropdown.Divider />
        {/* GET /logout only shows 'Logging out...'; that screen signs out with a same-origin POST. */}
        <Form method="get" action="/logout" className="px-3">
          <button type="submit" className="btn btn-outline-danger btn-sm w-100">
            {t("layout.menu.logout")}
          </button>
        </Form>
      </Dropdown.Menu>
    </Dropdown>
  );
}
