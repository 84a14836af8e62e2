import { useTranslation } from "react-i18next";
import { data, redirect, useNavigation } from "react-router";
import { ProductForm } from "~/components/ProductForm";
import { feeSign } from "~/lib/fee";
import { isProductId } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { parseProductForm, type ProductFormValues } from "~/lib/product-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { setFlash } from "~/server/flash.server";
import { getOwnedItem, updateOwnedItem } from "~/server/items/items.service.server";
import { afterSave } from "~/server/items/save-flow.server";
import { getRuntime } from "~/server/runtime.server";
import { readForm } from "~/server/http/form.server";
import type { Route } from "./+types/product-edit";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.edit");
}

async function ownedItemOrNull(request: Request, id: string) {
  const user = await requireNamedUser(request, "/");
  const { database, config } = await getRuntime();
  const item = isProductId(id) ? await getOwnedItem(database.db, user.ref, id) : null;
  return { user, item, db: database.db, secure: config.baseUrl.protocol === "https:" };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { item, secure } = await ownedItemOrNull(request, params.id);
  // Not the owner's (or no such id): the spec's alert 'Error load product', then /dashboard.
  if (!item) throw redirect("/dashboard", { headers: { "Set-Cookie": setFlash("errorLoadProduct", secure) } });
  const values: ProductFormValues = {
    name: item.name,
    findFee: String(item.findFee),
    prodType: item.prodType,
    contactInfo: item.contactInfo,
    payment: item.payment,
  };
  return { lang: context.get(requestContext).lang, values, paid: item.paid, currency: item.currency };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, item, db } = await ownedItemOrNull(request, params.id);
  // A forged POST for someone else's (or no) item: refused, nothing changed; 404 so the
  // answer does not tell whether the id exists.
  if (!item) throw data(null, { status: 404 });
  const parsed = parseProductForm(await readForm(request));
  if (!parsed.ok) return data({ values: parsed.values, errors: parsed.errors }, { status: 400 });
  if (!(await updateOwnedItem(db, user.ref, item.id, parsed.data))) throw data(null, { status: 404 });
  const payNow = parsed.data.intent === "payNow" && !item.paid;
  throw redirect(await afterSave(db, user.ref, item.id, payNow));
}

export default function ProductEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <section className="py-4 col-lg-8">
      <h1>{t("items.form.titleEdit")}</h1>
      <ProductForm
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors}
        paid={loaderData.paid}
        lang={loaderData.lang}
        feeSign={feeSign(loaderData.currency)}
        submitting={navigation.state === "submitting"}
      />
    </section>
  );
}
