import { useTranslation } from "~/i18n/react";
import { Form, useLocation } from "react-router";
import { PERSONAL_SCOPE, type Scope } from "~/lib/domain/organisation-roles";

/**
 * The active scope in the header, switchable without opening the user menu (decision 038):
 * the account whose items the pages show, and a button that posts the choice
 * to /scope (checked there against the membership, as the menu's). A button, not a change
 * of the select, switches: choosing an option with the keyboard must not reload the page.
 * Works without JavaScript. Shown only to users with an organisation.
 */
export function ScopeSwitcher({
  scopeMenu,
}: {
  scopeMenu: { scope: Scope; organisations: { id: string; name: string }[] };
}) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const active = scopeMenu.scope.kind === "organisation" ? scopeMenu.scope.organisationId : PERSONAL_SCOPE;
  return (
    // Keyed by the active scope: after a switch the select shows the new one.
    <Form
      key={active}
      method="post"
      action="/scope"
      className="scope-switch d-flex align-items-center gap-1 ms-auto ms-md-0 me-2 me-md-3"
    >
      <label htmlFor="scope-switch-select" className="visually-hidden">
        {t("layout.scope.switchLabel")}
      </label>
      <select
        id="scope-switch-select"
        name="scope"
        className="form-select form-select-sm scope-switch-select"
        defaultValue={active}
      >
        {[{ id: PERSONAL_SCOPE, name: t("layout.scope.personal") }, ...scopeMenu.organisations].map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
      <button type="submit" className="btn btn-sm btn-outline-dark">
        {t("layout.scope.switch")}
      </button>
    </Form>
  );
}
