/**
 * What the order page's loader sends (decisions 018, 021, 022, 027, 041 and 051): the query
 * (filter, page, the item "Save and pay now" came from) parsed, the page and the invoice
 * offer of the active scope, the address as lines, the flash. Its own module so the route
 * stays a guard and one call (the size rule of decision 039).
 */
import { data } from "react-router";
import type { Lang } from "~/i18n/config";
import { missingPostalFields } from "~/lib/domain/address";
import { currencyForLang } from "~/lib/domain/currency";
import { offeredOneTimeMethods } from "~/lib/domain/one-time-payment";
import { parseFocusItem, parseItemQuery } from "~/lib/domain/item-query";
import { addressLines } from "~/lib/forms/order-form";
import { flashIsSuccess, privatePageHeaders, takeFlash } from "../flash.server";
import { chosenPackage } from "../order-draft/package-choice.server";
import { activeScopeOf, organisationIdOf } from "../organisations/scope.http.server";
import type { PublicSettings } from "../public-settings.server";
import type { Deps } from "../service-deps.server";
import { getInvoiceOffer } from "./invoice.service.server";
import { getOrderPage } from "./order-page.service.server";

export async function loadOrderPage(
  deps: Pick<Deps, "db" | "config" | "clock"> & { site: Pick<PublicSettings, "seller"> },
  request: Request,
  userId: string,
  lang: Lang,
) {
  // Filter and page from the GET form and page links (decision 021); bad values are ignored.
  const params = new URL(request.url).searchParams;
  const query = parseItemQuery(params);
  // The active scope's items, as on the dashboard (decision 022).
  const organisationId = organisationIdOf(await activeScopeOf(deps, request, userId));
  const [page, invoice] = await Promise.all([
    getOrderPage(deps, userId, query, {
      chosenPackage: chosenPackage(request),
      organisationId,
      // "Save and pay now": that item alone, with the item form's period (decision 051).
      focus: parseFocusItem(params),
    }),
    // "Pay by invoice" for the admins of the active organisation (decision 027).
    getInvoiceOffer(deps, userId, organisationId),
  ]);
  const flash = takeFlash(request);
  const { buy: _buy, address, ...shown } = page;
  return data(
    {
      ...shown,
      address: address ? addressLines(address, { lang }) : null,
      // Fields the stickers' address still lacks (decision 018); payment is refused until none.
      missing: address ? missingPostalFields(address) : null,
      saved: flashIsSuccess(flash.message),
      filter: { q: query.q, type: query.type, paid: query.paid, lost: query.lost },
      invoice,
      seller: deps.site.seller,
      // A consumer's order (personal scope) has the right of withdrawal (decision 041).
      consumer: organisationId === null,
      // The yearly plan paid at once (decision 056): the methods offered in the page's currency.
      oneTimeMethods: offeredOneTimeMethods(deps.config.oneTimeMethods, currencyForLang(lang)),
    },
    { headers: privatePageHeaders(flash) },
  );
}
