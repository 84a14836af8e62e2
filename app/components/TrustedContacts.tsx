/**
 * The trusted contacts' two sections (decision 040): the list with "remove", the form that
 * names one, and which confirmed contacts get each item's alerts. Shared by an account's
 * /account/alerts and an organisation desk's /organisations/{id}/contacts; every form
 * posts to the page it is on (intents addContact, removeContact, itemContacts).
 */
import type { ReactNode } from "react";
import { Form } from "react-router";
import { CardSection } from "~/components/CardSection";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import type { FormMessage } from "~/lib/forms/form";
import { PHONE_INPUT_MAX } from "~/lib/domain/phone";
import { TRUSTED_CONTACTS_MAX, TRUSTED_EMAIL_MAX, TRUSTED_NAME_MAX } from "~/lib/domain/trusted-contacts";

type ChannelState = "pending" | "confirmed" | "declined" | null;

export interface TrustedContactsProps {
  contacts: {
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
    emailState: ChannelState;
    phoneState: ChannelState;
    status: string;
  }[];
  items: { id: string; name: string; excluded: string[] }[];
  /** The add form's answer when it was refused. */
  errorFor: (intent: string) => FormMessage | null | undefined;
  fieldFor: (intent: string, field: string) => string | undefined;
  valueOf: (intent: string, field: string) => string;
  /** The section's introduction and the list's heading (an account's or a desk's). */
  intro: string;
  listTitle: string;
  /** Shown instead of the add form when naming a contact is not possible yet (and why). */
  addBlocked?: ReactNode;
}

export function TrustedContacts({
  contacts,
  items,
  errorFor,
  fieldFor,
  valueOf,
  intro,
  listTitle,
  addBlocked,
}: TrustedContactsProps) {
  const { t } = useTranslation();
  return (
    <>
      <CardSection id="trusted" title={t("trusted.title")}>
        <p>{intro}</p>
        <h3 className="h6">{listTitle}</h3>
        {contacts.length === 0 ? (
          <p className="text-body-secondary">{t("trusted.none")}</p>
        ) : (
          <ul className="list-unstyled trusted-contacts">
            {contacts.map((c) => (
              <li key={c.id} className="d-flex flex-wrap align-items-center gap-2 mb-2 trusted-contact">
                <span className="text-break">
                  <strong>{c.name}</strong>
                  <br />
                  <span className={`small trusted-status-${c.status}`}>{t(`trusted.status.${c.status}`)}</span>
                  {/* Each address and number confirms on its own (decision 046). */}
                  {(
                    [
                      [c.email, c.emailState],
                      [c.phone, c.phoneState],
                    ] as const
                  ).map(([reach, state]) =>
                    reach && state ? (
                      <span key={reach} className={`d-block small trusted-channel-${state}`}>
                        {reach} – {t(`trusted.channel.${state}`)}
                      </span>
                    ) : null,
                  )}
                </span>
                <Form method="post" className="ms-auto">
                  <input type="hidden" name="intent" value="removeContact" />
                  <input type="hidden" name="contact" value={c.id} />
                  <button
                    type="submit"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={t("trusted.removeLabel", { name: c.name })}
                  >
                    {t("trusted.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <FormAlert message={errorFor("addContact")} />
        {contacts.length >= TRUSTED_CONTACTS_MAX ? (
          <p>{t("trusted.full", { count: TRUSTED_CONTACTS_MAX })}</p>
        ) : addBlocked ? (
          addBlocked
        ) : (
          // Keyed by the list: a contact added empties the form (with JavaScript the page is
          // not reloaded, and the fields would keep the name just saved); a refusal keeps it.
          <Form method="post" noValidate key={contacts.map((c) => c.id).join(" ")}>
            <input type="hidden" name="intent" value="addContact" />
            <Field
              id="trusted-name"
              name="name"
              label={t("trusted.name")}
              autoComplete="off"
              required
              maxLength={TRUSTED_NAME_MAX}
              defaultValue={valueOf("addContact", "name")}
              error={fieldFor("addContact", "name")}
            />
            <Field
              id="trusted-email"
              name="email"
              type="email"
              label={t("trusted.email")}
              autoComplete="off"
              maxLength={TRUSTED_EMAIL_MAX}
              defaultValue={valueOf("addContact", "email")}
              error={fieldFor("addContact", "email")}
            />
            <Field
              id="trusted-phone"
              name="phone"
              type="tel"
              inputMode="tel"
              label={t("trusted.phone")}
              autoComplete="off"
              maxLength={PHONE_INPUT_MAX}
              defaultValue={valueOf("addContact", "phone")}
              error={fieldFor("addContact", "phone")}
              help={t("trusted.reachHelp")}
            />
            <button type="submit" className="btn btn-primary">
              {t("trusted.add")}
            </button>
          </Form>
        )}
      </CardSection>

      {contacts.some((c) => c.status === "confirmed") && items.length > 0 ? (
        <CardSection id="trusted-items" title={t("trusted.perItem.title")}>
          <p>{t("trusted.perItem.intro")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="itemContacts" />
            <input type="hidden" name="items" value={items.map((i) => i.id).join(",")} />
            <div className="table-responsive">
              <table className="table align-middle table-fit">
                <caption className="visually-hidden">{t("trusted.perItem.caption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("trusted.perItem.item")}</th>
                    {contacts
                      .filter((c) => c.status === "confirmed")
                      .map((c) => (
                        <th scope="col" key={c.id} className="text-center text-break">
                          {c.name}
                        </th>
                      ))}
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <tr key={item.id}>
                      <th scope="row" className="fw-normal text-break">
                        {item.name}
                      </th>
                      {contacts
                        .filter((c) => c.status === "confirmed")
                        .map((c) => (
                          <td key={c.id} className="text-center">
                            <input
                              className="form-check-input"
                              type="checkbox"
                              name={`item.${item.id}.${c.id}`}
                              id={`trusted-${item.id}-${c.id}`}
                              defaultChecked={!item.excluded.includes(c.id)}
                              aria-label={`${item.name}: ${c.name}`}
                            />
                          </td>
                        ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <button type="submit" className="btn btn-primary">
              {t("trusted.perItem.save")}
            </button>
          </Form>
        </CardSection>
      ) : null}
    </>
  );
}
