import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { ADDRESS_FIELDS, ADDRESS_FIELD_MAX, parseAddressForm, type AddressField } from "~/lib/address";
import { pageMeta } from "~/lib/meta";
import { requireNamedUser } from "~/server/auth/session.server";
import { getAddressPrefill, keepOrderAddress } from "~/server/order-draft/order-draft.service.server";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/register-adress";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "address");
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/login");
  const { database } = await getRuntime();
  const values = await getAddressPrefill(database.db, user);
  return data({ values, save: false }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/login");
  const parsed = parseAddressForm(await readForm(request));
  if (!parsed.ok) return data({ values: parsed.values, save: parsed.save, errors: parsed.errors }, { status: 400 });
  const { database } = await getRuntime();
  await keepOrderAddress(database.db, user.ref, parsed.data, parsed.save);
  throw redirect("/order");
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
  const errors: Partial<Record<AddressField, string>> = actionData?.errors ?? {};
  const save = actionData?.save ?? loaderData.save;
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <section className="py-4 col-lg-8" aria-labelledby="address-title">
      <h1 id="address-title">{t("address.title")}</h1>
      <p>{t("address.intro")}</p>
      <Form method="post" noValidate>
        {hasErrors ? (
          <div className="alert alert-danger" role="alert">
            {t("address.errorSummary")}
          </div>
        ) : null}
        <div className="row g-3">
          {ADDRESS_FIELDS.map((f) => (
            <div key={f} className={f === "address" || f === "address2" || f === "co" ? "col-12" : "col-md-6"}>
              <label htmlFor={`address-${f}`} className="form-label">
                {t(`address.fields.${f}`)}
              </label>
              <input
                id={`address-${f}`}
                name={f}
                type={f === "email" ? "email" : "text"}
                className={`form-control${errors[f] ? " is-invalid" : ""}`}
                defaultValue={values[f]}
                maxLength={ADDRESS_FIELD_MAX}
                autoComplete={AUTOCOMPLETE[f]}
                required={f === "email"}
                aria-invalid={errors[f] ? true : undefined}
                aria-describedby={errors[f] ? `address-${f}-error` : undefined}
              />
              {errors[f] ? (
                <div id={`address-${f}-error`} className="invalid-feedback d-block">
                  {t(errors[f]!)}
                </div>
              ) : null}
            </div>
          ))}
          <div className="col-12 form-check ms-2">
            <input id="address-save" name="save" type="checkbox" className="form-check-input" defaultChecked={save} />
            <label htmlFor="address-save" className="form-check-label">
              {t("address.save")}
            </label>
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
