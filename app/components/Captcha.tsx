/**
 * The captcha of the contact form, the sign-in form and a flooded finder page. ALTCHA: the
 * widget (a web component, ~35 KB gzip) is loaded only here, in an effect
 * (app/lean/altcha-loader.ts), so no other page pays for it. reCAPTCHA: Google's script is
 * added with the page's nonce ('strict-dynamic' trusts what it loads). On a lean page (no
 * React in the browser, decision 042) it renders a placeholder and the captcha page script
 * (app/lean/captcha-page-script.ts) puts the widget in.
 */
import type {} from "altcha/types/react";
import { useEffect, useRef, useState } from "react";
import { ALTCHA_CONFIGURATION, loadAltcha } from "~/lean/altcha-loader";
import { renderRecaptcha } from "~/lean/recaptcha-loader";
import { useLeanPageAssets, useLeanRender } from "~/lean/lean-page";
import type { CaptchaKind } from "~/lib/domain/contact-limits";
import { useHydrated } from "~/lib/hooks/use-hydrated";

export interface CaptchaProps {
  kind: CaptchaKind;
  lang: "en" | "sv";
  /** Accessible name of the captcha group. */
  label: string;
  loadingText: string;
  siteKey?: string;
  nonce?: string;
  /** Called with the solution token, or null when there is none (reset, expired, error). */
  onToken: (token: string | null) => void;
  /** Change it to clear the captcha (after a successful send). */
  resetSignal: number;
  /**
   * On a lean page: the form field the solution goes into (the ALTCHA widget's own hidden
   * input; for reCAPTCHA one the page script fills). The full app passes it itself.
   */
  name?: string;
}

interface AltchaElement extends HTMLElement {
  reset: () => void;
}

function AltchaCaptcha({ lang, label, loadingText, onToken, resetSignal }: CaptchaProps) {
  // Nothing on the server and without JavaScript: the page's <noscript> explains.
  const inBrowser = useHydrated();
  const [ready, setReady] = useState(false);
  const ref = useRef<AltchaElement>(null);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    let alive = true;
    void loadAltcha().then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!ready || !el) return;
    const onState = (ev: Event) => {
      const detail = (ev as CustomEvent<{ state: string; payload?: string | null }>).detail;
      onTokenRef.current(detail.state === "verified" && detail.payload ? detail.payload : null);
    };
    el.addEventListener("statechange", onState);
    return () => el.removeEventListener("statechange", onState);
  }, [ready]);

  useEffect(() => {
    if (resetSignal && ready) ref.current?.reset();
  }, [resetSignal, ready]);

  return (
    <div role="group" aria-label={label} className="captcha mb-3">
      {ready ? (
        <altcha-widget
          ref={ref}
          challenge="/api/captcha/challenge"
          language={lang}
          name="captchaToken"
          configuration={ALTCHA_CONFIGURATION}
        />
      ) : inBrowser ? (
        <p className="text-body-secondary small mb-0">{loadingText}</p>
      ) : null}
    </div>
  );
}

function RecaptchaCaptcha({ lang, label, siteKey, nonce, onToken, resetSignal }: CaptchaProps) {
  const ref = useRef<HTMLDivElement>(null);
  const widgetId = useRef<number | undefined>(undefined);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    if (!ref.current || widgetId.current !== undefined) return;
    renderRecaptcha(
      ref.current,
      { siteKey, lang, nonce },
      (token) => onTokenRef.current(token),
      (id) => (widgetId.current = id),
    );
  }, [lang, siteKey, nonce]);

  useEffect(() => {
    if (resetSignal && widgetId.current !== undefined) window.grecaptcha?.reset(widgetId.current);
  }, [resetSignal]);

  return <div ref={ref} role="group" aria-label={label} className="captcha mb-3" />;
}

/**
 * On a lean page: the group the captcha page script fills, and that script (a module file,
 * loaded only here: the captcha's own weight, decision 042). Without JavaScript it stays
 * empty, as the full app's does; the page says why.
 */
function LeanCaptcha({ kind, lang, label, loadingText, siteKey, nonce, name = "captchaToken" }: CaptchaProps) {
  const assets = useLeanPageAssets();
  return (
    <>
      <div
        role="group"
        aria-label={label}
        className="captcha mb-3"
        data-captcha={kind}
        data-name={name}
        data-lang={lang}
        data-loading={loadingText}
        data-site-key={siteKey}
        data-challenge="/api/captcha/challenge"
      />
      {assets ? <script type="module" src={assets.captchaScript} nonce={nonce} /> : null}
    </>
  );
}

export function Captcha(props: CaptchaProps) {
  const lean = useLeanRender();
  if (lean) return <LeanCaptcha {...props} />;
  return props.kind === "recaptcha" ? <RecaptchaCaptcha {...props} /> : <AltchaCaptcha {...props} />;
}
