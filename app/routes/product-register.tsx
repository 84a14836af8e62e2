import { useTranslation } from "react-i18next";
import { data, redirect, useNavigation } from "react-router";
import { ProductForm } from "~/components/ProductForm";
import { currencyForLang, feeSign } from "~/lib/fee";
import { pageMeta } from "~/lib/meta";
import { DEFAULT_PAYMENT, parseProductForm, type ProductFormValues } from "~/lib/product-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { createItem } from "~/server/items/items.service.server";
import { afterSave } from "~/server/items/save-flow.server";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/product-register";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.register");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireNamedUser(request, "/");
  return { lang: context.get(requestContext).lang };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  const { lang } = context.get(requestContext);
  const parsed = parseProductForm(await readForm(request));
  if (!parsed.ok) return data({ values: parsed.values, errors: parsed.errors }, { status: 400 });
  const { database } = await getRuntime();
  const id = await createItem(database.db, user.ref, parsed.data, lang);
  throw redirect(await afterSave(database.db, user.ref, id, parsed.data.intent === "payNow"));
}

const EMPTY: ProductFormValues = { name: "", findFee: "", prodType: "", contactInfo: "", payment: DEFAULT_PAYMENT };

export default function ProductRegister({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <section className="py-4 col-lg-8">
      <h1>{t("items.form.titleRegister")}</h1>
      <ProductForm
        values={actionData?.values ?? EMPTY}
        errors={actionData?.errors}
        paid={false}
        lang={loaderData.lang}
        feeSign={feeSign(currencyForLang(loaderData.lang))}
        submitting={navigation.state === "submitting"}
      />
    </section>
  );
}
