import { useEffect } from "react";
import { useTranslation } from "~/i18n/react";
import { ContactText } from "~/components/ContactText";
import { formatDate, formatDateTime } from "~/lib/domain/dates";
import { data, Link } from "react-router";
import { CantMeetOwner } from "~/components/CantMeetOwner";
import { FinderMessageForm } from "~/components/FinderMessageForm";
import { ItemManage } from "~/components/ItemManage";
import { ItemQr } from "~/components/ItemQr";
import { useNonce } from "~/components/nonce";
import type { LeanHandle } from "~/lean/lean-page";
import { formatFee } from "~/lib/domain/fee";
import type { ActionResult } from "~/lib/forms/form";
import { isItemId } from "~/lib/domain/ids";
import { pageMeta } from "~/lib/domain/meta";
import type { ScanEntry } from "~/lib/domain/scans";
import { useLang } from "~/lib/hooks/use-lang";
import { getSessionUser } from "~/server/auth/session.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import { withActionHeaders } from "~/server/http/private-link.server";
import { itemErrors } from "~/server/items/items.http.server";
import { ItemError } from "~/server/items/items.service.server";
import { getStickerAddressView } from "~/server/items/sticker-address.service.server";
import { finderTemplateView } from "~/server/items/finder-preset.server";
import { scanLog } from "~/server/scans/scan-log.server";
import { recordItemPageVisit } from "~/server/scans/scans.service.server";
import type { FinderMessageValues } from "~/lib/domain/relay";
import { httpErrorOf } from "~/server/http/errors.server";
import { firstMessageAction } from "~/server/relay/finder-forms.http.server";
import { isRelayFlooded } from "~/server/relay/relay.service.server";
import { PhotoManager } from "~/components/PhotoManager";
import { UnclaimedSticker } from "~/components/UnclaimedSticker";
import type { PhotoView } from "~/lib/domain/photos";
import type { Route } from "./+types/item";

/**
 * The finder's page, /product/{id} and the sticker's short /{id}. Kept tiny: plain markup
 * (no react-bootstrap, no QR code), complete in the server's HTML, so a finder's phone
 * shows it without waiting for JavaScript (brief section 4).
 */
/**
 * Translation areas the page renders besides the root's (the owner's browser downloads
 * only these at first; app/i18n/areas.ts).
 * `lean`: an anonymous visitor (the finder) gets the page without React Router's
 * JavaScript (docs/decisions/020): plain HTML forms and one small inline
 * script. The owner and other signed-in users keep the full app (their user menu).
 */
export const handle: { i18n: string[] } & LeanHandle = {
  i18n: ["common", "itemTypes", "items", "photos", "relay", "scans", "swish"],
  // A flooded item (decision 029) asks every finder for the captcha, which needs the full app.
  lean: (data) => {
    const d = data as { anonymous: boolean; flooded: boolean } | undefined;
    return d !== undefined && d.anonymous && !d.flooded;
  },
};

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "items.page"), { name: "robots", content: "noindex" }];
}

export const headers = withActionHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isItemId(params.id)) throw data(null, { status: 404 });
  // A finder-page template's render (decision 045): its view is given; no scan, no flood.
  const preset = context.get(finderTemplateView);
  const [deps, viewer] = await Promise.all([getDeps(), getSessionUser(request)]);
  let found;
  // A refusal is the bare page of its status (no message): a stranger's scan learns nothing more.
  try {
    found = preset ?? (await getStickerAddressView(deps, params.id, viewer?.ref ?? null));
  } catch (err) {
    if (!(err instanceof ItemError)) throw err;
    throw data(null, { status: httpErrorOf(itemErrors, err).status });
  }
  if (found.kind === "replaced") throw data(null, { status: 410 });
  if (found.kind === "sticker") {
    const sticker = { state: found.state, code: found.code };
    return data({ id: params.id, sticker, anonymous: viewer === null, flooded: false }, NO_STORE);
  }
  const view = found;
  // Every view but the owner's is a scan, and a 'not paid' page may alert the owner
  // (decision 014). In memory: the page does not wait for the log.
  // A sticker its owner switched off (decision 017) is no scan and alerts nobody.
  if (request.method === "GET" && view.kind !== "inactive" && !preset) {
    recordItemPageVisit(scanLog, {
      itemId: params.id,
      paid: view.kind === "item" && view.paid,
      isOwner: view.isOwner,
      lang: context.get(requestContext).lang,
      userAgent: request.headers.get("user-agent"),
      at: deps.clock(),
    });
  }
  const captcha = deps.site.captcha;
  // Too many finder messages this hour (decision 029): the form asks for the captcha up front.
  const flooded = !preset && view.kind !== "inactive" && view.canMessage && (await isRelayFlooded(deps, params.id));
  // Owner-dependent and possibly private: never kept by shared caches.
  // The owner's view after switching the sticker off or on (decision 032).
  const switchedParam = new URL(request.url).searchParams.get("switched");
  const switched =
    view.kind === "item" && view.isOwner && (switchedParam === "on" || switchedParam === "off") ? switchedParam : null;
  const site = { origin: deps.site.origin, smsNumber: deps.site.smsNumber };
  return data({ id: params.id, view, captcha, anonymous: viewer === null, flooded, switched, ...site }, NO_STORE);
}

const NO_STORE = { headers: { "Cache-Control": "private, no-store" } };

/**
 * The finder's message to the owner (decision 013): a plain form POST to the item page
 * itself, so it works without JavaScript. Success goes on (POST-redirect-GET) to the
 * finder's private link, which says the message was sent.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  // Not an item's path (the short route also matches /healthz and the like): answer as
  // the 'Page not found' route does, which has no action.
  if (!isItemId(params.id)) throw data(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  const { ip, lang } = context.get(requestContext);
  const [deps, viewer] = await Promise.all([getDeps(), getSessionUser(request)]);
  return firstMessageAction(request, deps, params.id, { ip, lang, viewerId: viewer?.ref ?? null });
}

export default function ItemPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const nonce = useNonce();
  const { id } = loaderData;

  useEffect(() => {
    // The spec's short address-bar value, 400 ms after load; /{id} is a real route, so a
    // reload shows this page. history.replaceState keeps React Router's state untouched.
    const timer = window.setTimeout(() => {
      // Only while this page is still the one in the address bar: a link followed within
      // the 400 ms must not be rewritten back to the item (seen under load in e2e). The
      // fragment stays: /product/{id}#photos after an upload still points at the photos.
      if (window.location.pathname === `/product/${id}`) {
        window.history.replaceState(window.history.state, "", `/${id}${window.location.hash}`);
      }
    }, 400);
    return () => window.clearTimeout(timer);
  }, [id]);

  if ("sticker" in loaderData) return <UnclaimedSticker id={id} {...loaderData.sticker} />;
  const { view, captcha, flooded, switched, origin, smsNumber } = loaderData;

  if (view.kind === "inactive") {
    return (
      <section className="py-4 item-page" aria-labelledby="item-title">
        <h1 id="item-title" className="h3">
          {t("items.page.inactive")}
        </h1>
        <p>{t("items.page.inactiveHelp")}</p>
      </section>
    );
  }
  if (view.kind === "notPaid" && view.canMessage) {
    // Paid once, lapsed since (decision 019): the spec's 'not paid' notice and never the
    // contact info, but the finder can still reach the owner through the relay.
    return (
      <section className="py-4 item-page" aria-labelledby="item-title">
        <h1 id="item-title" className="h3">
          {t("items.page.notPaid")}
        </h1>
        <p>{t("items.page.lapsedHelp")}</p>
        <FinderMessageForm
          result={actionData as ActionResult<FinderMessageValues> | undefined}
          captcha={captcha.kind}
          siteKey={captcha.siteKey}
          nonce={nonce}
          heading={t("relay.form.title")}
          pageScript
          flooded={flooded}
          code={view.code}
        />
        {smsNumber ? (
          <p className="finder-sms">{t("relay.sms.finderPage", { code: view.code, number: smsNumber })}</p>
        ) : null}
        <CantMeetOwner code={view.code} />
      </section>
    );
  }
  if (view.kind !== "item") {
    return (
      <section className="py-4 item-page" aria-labelledby="item-title">
        <h1 id="item-title" className="h3">
          {t("items.page.notPaid")}
        </h1>
        <p>{t("items.page.notPaidHelp")}</p>
        {/* Not a dead end for the finder (decision 014): hand it in through us. */}
        {/* The printed sticker code, never the item's internal id. */}
        <p>{t("scans.handIn.text", { code: view.code })}</p>
        <p>
          <a href={`/contact?item=${encodeURIComponent(view.code)}`} className="btn btn-primary">
            {t("scans.handIn.contactLink")}
          </a>
        </p>
      </section>
    );
  }
  const fee = formatFee(view.findFee, view.currency);
  const shown = view.desk ? view.desk.contact !== null : view.contactInfo !== null;
  const photo = view.photo ? <FinderPhoto photo={view.photo} name={view.name} /> : null;
  return (
    <section className="py-4 item-page" aria-labelledby="item-title">
      {switched ? (
        <div className="alert alert-success" role="status">
          {t(switched === "off" ? "items.manage.switchedOffDone" : "items.manage.switchedOnDone")}
        </div>
      ) : null}
      {/* Lost mode leads with the photo (decision 035): "is this the one in my hand?" */}
      {view.lost ? photo : null}
      {view.ownerDeactivated ? (
        <div className="alert alert-secondary" role="status">
          {t("items.page.ownerInactive")}
        </div>
      ) : null}
      {view.ownerMustActivate ? (
        <div className="alert alert-warning" role="status">
          {t("items.page.notActivated")}{" "}
          <Link to="/order" className="alert-link">
            {t("items.page.activate")}
          </Link>
        </div>
      ) : null}
      {view.lost ? (
        <div className="alert alert-danger lost-banner" role="status">
          <p className="fs-4 fw-bold mb-1">{t("scans.page.lostBanner")}</p>
          <p className="fs-5 mb-0">{t("scans.page.lostReward", { fee })}</p>
        </div>
      ) : (
        <p className="fs-4 fw-bold mb-2">{t("items.page.feeLead", { fee })}</p>
      )}
      <h1 id="item-title" className="text-break">
        {view.name}
      </h1>
      {view.lost ? null : photo}
      <p>{t("items.page.typeLine", { type: t(`itemTypes.${view.prodType}`, { defaultValue: view.prodType }) })}</p>
      {view.manage ? (
        // The one place to manage the item (decision 032), then lost mode and scans,
        // then the finder's page as a finder sees it.
        <>
          <ItemManage item={{ ...view, manage: view.manage }} />
          <ItemQr id={id} code={view.code} origin={origin} />
          <PhotoManager itemId={id} name={view.name} photos={view.photos} />
          <OwnerPanel id={id} lost={view.lost} lostAt={view.lostAt} scans={view.scans} />
          <h2 className="h4 mt-4 pt-3 border-top">{t("items.manage.finderTitle")}</h2>
        </>
      ) : null}
      {/* One coherent text per visibility: "contact … below" only when
          details are shown below, else how to write to the owner. */}
      <p className={shown ? undefined : "lead"}>
        {t(shown ? (view.desk ? "items.page.adviceDesk" : "items.page.advice") : "relay.visibility.privateLead")}
      </p>
      {view.desk ? (
        // An organisation item (decision 026): the finder reaches its lost-and-found desk,
        // never the contact text of the person who registered or carries it.
        <>
          <h2 className="h4 text-break">{t("items.page.deskTitle", { name: view.desk.name })}</h2>
          {view.desk.contact !== null ? (
            <p className="contact-info text-break">
              <ContactText text={view.desk.contact} />
            </p>
          ) : null}
        </>
      ) : view.contactInfo !== null ? (
        <>
          <h2 className="h4">{t("items.page.contactTitle")}</h2>
          <p className="contact-info text-break">
            <ContactText text={view.contactInfo} />
          </p>
          {view.isOwner && view.contactVisibility === "private" ? (
            <p className="text-body-secondary small">{t("relay.visibility.ownerNote")}</p>
          ) : null}
        </>
      ) : null}
      {view.canMessage ? (
        <FinderMessageForm
          result={actionData as ActionResult<FinderMessageValues> | undefined}
          captcha={captcha.kind}
          siteKey={captcha.siteKey}
          nonce={nonce}
          heading={t("relay.form.title")}
          pageScript
          flooded={flooded}
          code={view.code}
        />
      ) : null}
      {/* Decision 055: a finder without mobile data texts the code to Hittad's number. */}
      {view.canMessage && smsNumber ? (
        <p className="finder-sms">{t("relay.sms.finderPage", { code: view.code, number: smsNumber })}</p>
      ) : null}
      {view.isOwner ? null : <CantMeetOwner code={view.code} />}
    </section>
  );
}

/**
 * The item's first public photo for the finder (decision 035): 320 px wide on a phone
 * (640 on a sharper screen), its size given so nothing moves when it arrives, named after
 * the item. Plain markup: the lean page stays without framework JavaScript.
 */
function FinderPhoto({ photo, name }: { photo: PhotoView; name: string }) {
  const { t } = useTranslation();
  return (
    <img
      src={photo.small.url}
      srcSet={`${photo.small.url} ${photo.small.width}w, ${photo.medium.url} ${photo.medium.width}w`}
      sizes={`${photo.small.width}px`}
      width={photo.small.width}
      height={photo.small.height}
      alt={t("photos.finder.alt", { name })}
      className="item-photo"
      fetchPriority="high"
    />
  );
}

/** What only the owner sees on their item's page: lost mode and the last scans (decision 014). */
function OwnerPanel({
  id,
  lost,
  lostAt,
  scans,
}: {
  id: string;
  lost: boolean;
  lostAt: number | null;
  scans: ScanEntry[];
}) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <>
      <h2 className="h4 mt-4">{t("scans.owner.lostTitle")}</h2>
      <p>
        {lost && lostAt ? t("scans.owner.lostNote", { date: formatDate(lostAt, lang) }) : t("scans.owner.notLostNote")}
      </p>
      {/* A plain POST form: works without JavaScript, answers with a redirect back here. */}
      <form method="post" action={`/product/${id}/lost`}>
        <input type="hidden" name="lost" value={lost ? "0" : "1"} />
        <input type="hidden" name="back" value="item" />
        <button type="submit" className={`btn ${lost ? "btn-success" : "btn-outline-danger"}`}>
          {t(lost ? "scans.owner.found" : "scans.owner.markLost")}
        </button>
      </form>
      <h2 className="h4 mt-4" id="scans-title">
        {t("scans.owner.scansTitle")}
      </h2>
      <p>{t("scans.owner.scansIntro")}</p>
      {scans.length === 0 ? (
        <p className="scan-empty">{t("scans.owner.noScans")}</p>
      ) : (
        <table className="table table-sm scan-list" aria-labelledby="scans-title">
          <thead>
            <tr>
              <th scope="col">{t("scans.owner.table.time")}</th>
              <th scope="col">{t("scans.owner.table.device")}</th>
              <th scope="col">{t("scans.owner.table.language")}</th>
            </tr>
          </thead>
          <tbody>
            {scans.map((s, i) => (
              <tr key={`${s.at}-${i}`}>
                <td>{formatDateTime(s.at, lang)}</td>
                <td>{t(`scans.devices.${s.device}`)}</td>
                <td>{t(`scans.langs.${s.lang}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
