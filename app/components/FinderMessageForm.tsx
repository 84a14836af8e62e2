/**
 * The finder's message to the owner (decision 013): on every paid item page and at the
 * finder's private link. A plain POST form first (works without JavaScript: message,
 * email or phone, honeypot); with JavaScript it also offers "share my location" (the
 * browser's position, checked again on the server) and the captcha, loaded only once the
 * finder starts writing so the finder page stays light. While the item is flooded
 * (decision 029) every sender needs the captcha: it is shown at once, and without JavaScript the
 * form says so and how to hand the item in instead.
 */
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { Form, useNavigation } from "react-router";
import type { ActionResult } from "~/lib/forms/form";
import type { CaptchaKind } from "~/lib/domain/contact-limits";
import {
  FINDER_CONTACT_MAX,
  HONEYPOT_FIELD,
  RELAY_MESSAGE_MAX,
  type Coordinates,
  type FinderMessageValues,
} from "~/lib/domain/relay-limits";
import { useLang } from "~/lib/hooks/use-lang";
import { Captcha } from "./Captcha";
import { Field, TextareaField } from "./form/Field";
import { FormAlert } from "./form/FormAlert";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useLeanRender } from "~/lean/lean-page";

type LocationState = "off" | "locating" | "located" | "failed";

export function FinderMessageForm({
  result,
  captcha,
  siteKey,
  nonce,
  idPrefix = "relay",
  heading,
  pageScript = false,
  flooded = false,
  code,
  followUp = false,
}: {
  result: ActionResult<FinderMessageValues> | undefined;
  captcha: CaptchaKind;
  siteKey?: string;
  nonce?: string;
  idPrefix?: string;
  heading: string;
  /** On the lean finder page (no React): its page script offers "share my location". */
  pageScript?: boolean;
  /** The item is flooded: the captcha is needed whatever the page. */
  flooded?: boolean;
  /** The sticker code, for handing the item in (shown while flooded without JavaScript). */
  code?: string;
  /**
   * Writing again at the private link (decision 057): the finder is already at the link
   * the intro promises, and the conversation keeps the contact given first (the server
   * ignores a new one), so neither is said or asked again.
   */
  followUp?: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  // False in the server's HTML and without JavaScript: the script-only parts stay out.
  const scripted = useHydrated();
  // The template is for the lean page's own script only: React cannot hydrate a
  // <template>'s children (they live in its content, not in the page), decision 045.
  const leanRender = useLeanRender();
  const leanScript = pageScript && leanRender;
  const [engaged, setEngaged] = useState(false);
  const [location, setLocation] = useState<LocationState>("off");
  const [coords, setCoords] = useState<Coordinates | null>(null);
  // reCAPTCHA hands its token to a callback; ALTCHA's widget adds its own captchaToken input.
  const [token, setToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);
  const [seenResult, setSeenResult] = useState(result);
  if (result !== seenResult) {
    // A refused submit used up the solution: start a new captcha.
    setSeenResult(result);
    setResetSignal((n) => n + 1);
  }
  const errors = result?.fieldErrors ?? {};
  // A refused position has no field of its own to stand by: it is the form's message.
  const formError =
    result?.formError ??
    (errors.latitude ? { key: errors.latitude } : Object.keys(errors).length ? { key: "relay.errors.summary" } : null);

  function shareLocation(on: boolean) {
    setCoords(null);
    if (!on) return setLocation("off");
    if (!navigator.geolocation) return setLocation("failed");
    setLocation("locating");
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        // Six decimals are about 10 cm: more says nothing more.
        const round = (n: number) => Math.round(n * 1e6) / 1e6;
        setCoords({ latitude: round(pos.coords.latitude), longitude: round(pos.coords.longitude) });
        setLocation("located");
      },
      () => setLocation("failed"),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  }

  const titleId = `${idPrefix}-title`;
  return (
    <section className="finder-message mt-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="h4">
        {heading}
      </h2>
      <p>
        {t(followUp ? "relay.finder.writeMoreIntro" : "relay.form.intro")}{" "}
        <a href="/privacy#finders" className="finder-privacy">
          {t("relay.form.privacy")}
        </a>
      </p>
      {flooded ? (
        scripted ? (
          <p className="alert alert-info" role="status">
            {t("relay.flood.scripted")}
          </p>
        ) : (
          <div className="alert alert-warning relay-flood" role="status">
            <p>{t("relay.flood.noScript")}</p>
            <p className="mb-0">
              {t("relay.flood.handIn")} <strong className="font-monospace sticker-code">{code}</strong>
            </p>
          </div>
        )
      ) : null}
      <Form method="post" noValidate onFocus={() => setEngaged(true)} aria-busy={sending}>
        <FormAlert message={formError} />
        <TextareaField
          id={`${idPrefix}-message`}
          name="message"
          label={t("relay.form.message")}
          help={t("relay.form.messageHelp")}
          error={errors.message}
          defaultValue={result?.values.message ?? ""}
          rows={5}
          maxLength={RELAY_MESSAGE_MAX}
          required
        />
        {followUp ? null : (
          <Field
            id={`${idPrefix}-contact`}
            name="contact"
            label={t("relay.form.contact")}
            help={t("relay.form.contactHelp")}
            error={errors.contact}
            defaultValue={result?.values.contact ?? ""}
            maxLength={FINDER_CONTACT_MAX}
            autoComplete="email"
          />
        )}
        {/* People never see or reach this field; bots that fill every input do. */}
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor={`${idPrefix}-${HONEYPOT_FIELD}`}>{t("relay.form.honeypot")}</label>
          <input
            id={`${idPrefix}-${HONEYPOT_FIELD}`}
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </div>
        {scripted ? (
          <div className="form-check mb-3">
            <input type="hidden" name="js" value="1" />
            <input
              className="form-check-input"
              type="checkbox"
              id={`${idPrefix}-location`}
              checked={location !== "off"}
              onChange={(e) => shareLocation(e.target.checked)}
              aria-describedby={`${idPrefix}-location-help`}
            />
            <label className="form-check-label" htmlFor={`${idPrefix}-location`}>
              {t("relay.form.shareLocation")}
            </label>
            <div id={`${idPrefix}-location-help`} className="form-text mt-0" aria-live="polite">
              {location === "locating"
                ? t("relay.form.locating")
                : location === "located"
                  ? t("relay.form.located")
                  : location === "failed"
                    ? t("relay.form.locationFailed")
                    : t("relay.form.shareLocationHelp")}
            </div>
            {coords ? (
              <>
                <input type="hidden" name="latitude" value={coords.latitude} />
                <input type="hidden" name="longitude" value={coords.longitude} />
              </>
            ) : null}
          </div>
        ) : (
          <>
            <p className="form-text" id={`${idPrefix}-location-noscript`}>
              {t("relay.form.locationNoScript")}
            </p>
            {leanScript ? (
              // The finder page's script (app/lean/finder-page-script.js) puts this in place of
              // the note above; without JavaScript it stays inert. No "js" field: the captcha
              // belongs to the full app, and the server asks for it only when "js" is sent.
              <template id={`${idPrefix}-location-template`}>
                <div className="form-check mb-3">
                  <input
                    className="form-check-input"
                    type="checkbox"
                    id={`${idPrefix}-location`}
                    aria-describedby={`${idPrefix}-location-help`}
                  />
                  <label className="form-check-label" htmlFor={`${idPrefix}-location`}>
                    {t("relay.form.shareLocation")}
                  </label>
                  <div
                    id={`${idPrefix}-location-help`}
                    className="form-text mt-0"
                    aria-live="polite"
                    data-off={t("relay.form.shareLocationHelp")}
                    data-locating={t("relay.form.locating")}
                    data-located={t("relay.form.located")}
                    data-failed={t("relay.form.locationFailed")}
                  >
                    {t("relay.form.shareLocationHelp")}
                  </div>
                </div>
              </template>
            ) : null}
          </>
        )}
        {scripted && (engaged || result || flooded) ? (
          <Captcha
            kind={captcha}
            lang={lang}
            label={t("relay.form.captchaLabel")}
            loadingText={t("relay.form.captchaLoading")}
            siteKey={siteKey}
            nonce={nonce}
            onToken={setToken}
            resetSignal={resetSignal}
          />
        ) : null}
        {captcha === "recaptcha" && token ? <input type="hidden" name="captchaToken" value={token} /> : null}
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? t("relay.form.sending") : t("relay.form.send")}
        </button>
      </Form>
    </section>
  );
}
