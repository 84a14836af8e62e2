import { useTranslation } from "~/i18n/react";
import { data, Form, redirect, useNavigation } from "react-router";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import {
  ADDRESS_FIELDS,
  ADDRESS_FIELD_MAX,
  missingPostalFields,
  POSTAL_FIELDS,
  parseAddressForm,
  type AddressField,
  type AddressFormValues,
} from "~/lib/address";
import { pageMeta } from "~/lib/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { invalidForm } from "~/server/http/errors.server";
import { setFlash } from "~/server/flash.server";
import { readForm } from "~/server/http/form.server";
import { getAddressPrefill, keepOrderAddress } from "~/server/order-draft/order-draft.service.server";
import type { Route } from "./+types/register-adress";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["address", "common"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "address");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const values: AddressFormValues = { ...(await getAddressPrefill(await getDeps(), user)), save: false };
  // Sent here by /order because the address is incomplete (issue #19): say which fields.
  const missing = new URL(request.url).searchParams.has("missing") ? missingPostalFields(values) : [];
  const fieldErrors: Partial<Record<AddressField, string>> = Object.fromEntries(
    missing.map((f) => [f, "address.errors.required"]),
  );
  return data(
    { values, fieldErrors, missing: missing.length > 0 },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const parsed = parseAddressForm(await readForm(request));
  if (!parsed.ok) return invalidForm(parsed.values, parsed.errors, { key: "address.errorSummary" });
  const deps = await getDeps();
  await keepOrderAddress(deps, user.ref, parsed.data, parsed.save);
  // Confirmed on /order ("Saved", issue #19).
  throw redirect("/order", { headers: { "Set-Cookie": setFlash("saved", deps.config.secureCookies) } });
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
  country: "country-name",
};

export default function RegisterAdress({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const values = actionData?.values ?? loaderData.values;
  const errors: Partial<Record<AddressField, string>> = actionData?.fieldErrors ?? loaderData.fieldErrors;
  const formError = actionData?.formError ?? (loaderData.missing ? { key: "address.incompleteSummary" } : null);
  return (
    <section className="py-4 col-lg-8" aria-labelledby="address-title">
      <h1 id="address-title">{t("address.title")}</h1>
      <p>{t("address.intro")}</p>
      <Form method="post" noValidate>
        <FormAlert message={formError} />
        <div className="row g-3">
          {ADDRESS_FIELDS.map((f) => (
            <Field
              key={f}
              id={`address-${f}`}
              name={f}
              label={t(`address.fields.${f}`)}
              error={errors[f]}
              className={f === "address" || f === "address2" || f === "co" ? "col-12" : "col-md-6"}
              type={f === "email" ? "email" : "text"}
              defaultValue={values[f]}
              maxLength={ADDRESS_FIELD_MAX}
              autoComplete={AUTOCOMPLETE[f]}
              required={f === "email" || (POSTAL_FIELDS as readonly AddressField[]).includes(f)}
            />
          ))}
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
