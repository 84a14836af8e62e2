import { useTranslation } from "~/i18n/react";
import { data, Form, redirect, useNavigation } from "react-router";
import { parseFocusItem } from "~/lib/domain/item-query";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { parseAddressForm, type Address, type AddressFormValues } from "~/lib/domain/address";
import { ADDRESS_FIELD_MAX, missingPostalFields, POSTAL_FIELDS, type AddressField } from "~/lib/forms/address-fields";
import { countryCodeOf, countryOptions, HOME_COUNTRY, POSTAL_EXAMPLES, usesRegion } from "~/lib/domain/countries";
import { pageMeta } from "~/lib/domain/meta";
import { useFieldValue } from "~/lib/hooks/use-field-value";
import { requestContext } from "~/server/context";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction, type FormReading } from "~/server/http/form-action.server";
import { getAddressPrefill, keepOrderAddress } from "~/server/order-draft/order-draft.service.server";
import { activeScopeOf } from "~/server/organisations/scope.http.server";
import type { Route } from "./+types/register-adress";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["address", "common"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "address");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const deps = await getDeps();
  // An organisation's scope: its address, its name as recipient (decision 038).
  const scope = await activeScopeOf(deps, request, user.ref);
  const organisationId = scope.kind === "organisation" ? scope.organisationId : null;
  const values: AddressFormValues = { ...(await getAddressPrefill(deps, user, organisationId)), save: false };
  // Sent here by /order because the address is incomplete (decision 018): say which fields.
  const missing = new URL(request.url).searchParams.has("missing") ? missingPostalFields(values) : [];
  const fieldErrors: Partial<Record<AddressField, string>> = Object.fromEntries(
    missing.map((f) => [f, "address.errors.required"]),
  );
  // Names from the server's CLDR data, so the browser's own (another version) cannot differ.
  const countries = countryOptions(context.get(requestContext).lang);
  return data({
    values,
    fieldErrors,
    missing: missing.length > 0,
    countries,
    organisation: scope.kind === "organisation" ? scope.name : null,
  });
}

/** The address form as the action reads it: the address and whether to keep it, or what is wrong. */
type ReadAddress = { address: Address; save: boolean };

function readAddress(form: FormData): FormReading<ReadAddress> {
  const parsed = parseAddressForm(form);
  if (!parsed.ok) return { ok: false, fieldErrors: parsed.errors, values: parsed.values };
  return { ok: true, data: { address: parsed.data, save: parsed.save } };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  // No service refusal to map: keeping the address only fails as a 500 would.
  return formAction<ReadAddress, Response, AddressFormValues>(
    request,
    { errors: [] },
    {
      parse: readAddress,
      invalid: { key: "address.errorSummary" },
      async handle({ address, save }) {
        const deps = await getDeps();
        const scope = await activeScopeOf(deps, request, user.ref);
        const organisationId = scope.kind === "organisation" ? scope.organisationId : null;
        await keepOrderAddress(deps, user.ref, address, save, organisationId);
        // Confirmed on /order ("Saved", decision 018), on the item "Save and pay now" came from.
        const item = parseFocusItem(new URL(request.url).searchParams);
        return redirect(item ? `/order?item=${item}` : "/order", {
          headers: { "Set-Cookie": deps.cookies.flash("saved") },
        });
      },
    },
  );
}

const AUTOCOMPLETE: Record<AddressField, string> = {
  firstname: "given-name",
  lastname: "family-name",
  email: "email",
  co: "off",
  address: "address-line1",
  address2: "address-line2",
  city: "address-level2",
  state: "address-level1",
  zip: "postal-code",
  country: "country",
};

/**
 * The form's order (decision 032): the country first, since it decides the postal
 * code's format and whether there is a region; the postal code before the city, as Swedes
 * write it.
 */
const FORM_ORDER: AddressField[] = [
  "firstname",
  "lastname",
  "email",
  "co",
  "country",
  "address",
  "address2",
  "zip",
  "city",
  "state",
];
const WIDE: ReadonlySet<AddressField> = new Set(["address", "address2", "co", "country"]);
const ZIP_COLUMN = "col-5 col-md-4";
const CITY_COLUMN = "col-7 col-md-8";

export default function RegisterAdress({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const values = actionData?.values ?? loaderData.values;
  const errors: Partial<Record<AddressField, string>> = actionData?.fieldErrors ?? loaderData.fieldErrors;
  const formError = actionData?.formError ?? (loaderData.missing ? { key: "address.incompleteSummary" } : null);
  const { countries, organisation } = loaderData;
  // An address saved before the select (free text) is read by its name; unknown: choose.
  const initialCountry = values.country ? (countryCodeOf(values.country) ?? "") : HOME_COUNTRY;
  // The chosen country decides the region field and the postal code's example, live.
  const country = useFieldValue("address-country", initialCountry);
  return (
    <section className="py-4 col-lg-8" aria-labelledby="address-title">
      <h1 id="address-title">{t(organisation ? "address.organisation.title" : "address.title")}</h1>
      <p className="text-break">
        {organisation ? t("address.organisation.intro", { organisation }) : t("address.intro")}
      </p>
      <Form method="post" noValidate>
        <FormAlert message={formError} />
        <div className="row g-3">
          {FORM_ORDER.map((f) => {
            const required = f === "email" || (POSTAL_FIELDS as readonly AddressField[]).includes(f);
            if (f === "country") {
              return (
                <div key={f} className="col-12">
                  <label htmlFor="address-country" className="form-label">
                    {t("address.fields.country")}
                  </label>
                  <select
                    id="address-country"
                    name="country"
                    className={`form-select${errors.country ? " is-invalid" : ""}`}
                    defaultValue={initialCountry}
                    autoComplete={AUTOCOMPLETE.country}
                    aria-invalid={errors.country ? true : undefined}
                    aria-describedby={errors.country ? "address-country-error" : "address-country-help"}
                    required
                  >
                    {initialCountry === "" ? <option value="">{t("address.chooseCountry")}</option> : null}
                    {countries.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                  <div id="address-country-help" className="form-text">
                    {t("address.countryHelp")}
                  </div>
                  {errors.country ? (
                    <div id="address-country-error" className="invalid-feedback d-block">
                      {t(errors.country)}
                    </div>
                  ) : null}
                </div>
              );
            }
            // A region only where the country uses one (and a stored one is never hidden).
            if (f === "state" && !usesRegion(country) && !values.state) return null;
            // A company's stickers go to the company: one recipient field, no person's name.
            if (f === "lastname" && organisation && !values.lastname) return null;
            const example = f === "zip" ? POSTAL_EXAMPLES[country] : undefined;
            return (
              <Field
                key={f}
                id={`address-${f}`}
                name={f}
                label={t(f === "firstname" && organisation ? "address.organisation.recipient" : `address.fields.${f}`)}
                error={errors[f]}
                help={example ? t("address.zipExample", { example }) : undefined}
                className={
                  WIDE.has(f) || (f === "firstname" && organisation)
                    ? "col-12"
                    : f === "zip"
                      ? ZIP_COLUMN
                      : f === "city"
                        ? CITY_COLUMN
                        : "col-md-6"
                }
                type={f === "email" ? "email" : "text"}
                defaultValue={values[f]}
                maxLength={ADDRESS_FIELD_MAX}
                autoComplete={AUTOCOMPLETE[f]}
                required={required}
              />
            );
          })}
          {organisation ? null : (
            <div className="col-12">
              <div className="form-check">
                <input
                  id="address-save"
                  name="save"
                  type="checkbox"
                  className="form-check-input"
                  defaultChecked={values.save}
                />
                <label htmlFor="address-save" className="form-check-label">
                  {t("address.save")}
                </label>
              </div>
            </div>
          )}
          <div className="col-12">
            <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
              {t("address.submit")}
            </button>
          </div>
        </div>
      </Form>
    </section>
  );
}
