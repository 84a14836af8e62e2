import { useTranslation } from "~/i18n/react";
import { data, useNavigation } from "react-router";
import { ProductForm } from "~/components/ProductForm";
import { currencyForLang } from "~/lib/domain/currency";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { DEFAULT_PERIOD } from "~/lib/domain/pricing";
import type { ProductFormValues } from "~/lib/forms/product-form";
import { requireNamedUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { stickerParam, stickerToClaim } from "~/server/stickers/claim.http.server";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { getAssignmentChoice } from "~/server/items/edit-page.service.server";
import { itemRegisterAction } from "~/server/items/item-form.http.server";
import { wantsTriple } from "~/server/items/triple.http.server";
import { TripleItemsForm } from "~/components/TripleItemsForm";
import { activeScopeOf, organisationIdOf } from "~/server/organisations/scope.http.server";
import { DEFAULT_VISIBILITY } from "~/lib/domain/relay-limits";
import { chosenPackage } from "~/server/order-draft/package-choice.server";
import { BODY_TOO_LARGE_MESSAGE } from "~/server/photos/photos.http.server";
import type { Route } from "./+types/item-register";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "itemTypes", "items", "photos", "relay", "scans"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "items.register");
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  // An action's Retry-After (the upload limit) travels with the page it renders.
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireNamedUser(request, "/");
  const deps = await getDeps();
  // In an organisation's scope its admins choose a member for the new item (decision 026).
  const organisationId = organisationIdOf(await activeScopeOf(deps, request, user.ref));
  const assignment = await getAssignmentChoice(deps, user.ref, organisationId);
  // The package chosen on the home page (decision 018).
  const page = {
    chosenPackage: chosenPackage(request),
    triple: wantsTriple(request),
    assignment,
    tooLarge: null as typeof BODY_TOO_LARGE_MESSAGE | null,
    // Registering a printed sticker (decision 036): /claim checked it; a stale link gets the error page.
    sticker: await stickerToClaim(deps, request, user.ref, context.get(requestContext).ip),
  };
  // A POST over the photo form's body limit, rendered as this page (decision 035).
  if (context.get(requestContext).bodyTooLarge)
    return data({ ...page, tooLarge: BODY_TOO_LARGE_MESSAGE }, { status: 413 });
  return page;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireNamedUser(request, "/");
  const { lang, ip, photoUpload } = context.get(requestContext);
  const deps = await getDeps();
  const sticker = stickerParam(request, ip);
  return itemRegisterAction(request, { deps, userId: user.ref, photoUpload, lang, sticker });
}

const EMPTY: ProductFormValues = {
  name: "",
  findFee: "",
  approxValue: "",
  prodType: "",
  contactInfo: "",
  contactVisibility: DEFAULT_VISIBILITY,
  payment: DEFAULT_PERIOD,
  scanAlerts: "",
};

export default function ProductRegister({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const { sticker } = loaderData;
  if (loaderData.triple && !sticker)
    return (
      <TripleItemsForm
        result={actionData && "triple" in actionData ? actionData : undefined}
        currency={currencyForLang(lang)}
        submitting={navigation.state === "submitting"}
      />
    );
  const single = actionData && "triple" in actionData ? undefined : actionData;
  return (
    <section className="py-4 col-lg-8">
      <h1>{t(sticker ? "items.claim.title" : "items.form.titleRegister")}</h1>
      {sticker ? (
        <p className="alert alert-info claim-sticker" role="note">
          {t("items.claim.code", { code: formatStickerCode(sticker.code) })}{" "}
          {sticker.prepaidMonths
            ? t("items.claim.prepaid", { count: sticker.prepaidMonths })
            : t("items.claim.notPrepaid")}
        </p>
      ) : null}
      {loaderData.chosenPackage ? (
        <p className="alert alert-info product-package" role="note">
          {t(`items.form.package.${loaderData.chosenPackage}`)}{" "}
          {loaderData.chosenPackage === "tripple" ? (
            <a href="/product/register?package=tripple">{t("items.triple.link")}</a>
          ) : null}
        </p>
      ) : null}
      <ProductForm
        values={single?.values ?? EMPTY}
        paid={!!sticker?.prepaidMonths}
        paidText={
          sticker?.prepaidMonths ? { note: t("items.claim.prepaidNote"), submit: t("items.claim.save") } : undefined
        }
        currency={currencyForLang(lang)}
        submitting={navigation.state === "submitting"}
        assignment={loaderData.assignment}
        result={single ?? (loaderData.tooLarge ? { fieldErrors: {}, formError: loaderData.tooLarge } : undefined)}
      />
    </section>
  );
}
