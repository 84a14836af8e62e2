/**
 * The contact form's captcha. ALTCHA: the widget (a web component, ~35 KB gzip) is
 * imported only here, in an effect, so no other page pays for it. We use its "external"
 * build: styles come as a stylesheet (style-src 'self') and the proof-of-work runs in a
 * worker served from /assets (worker-src 'self'), so the strict CSP holds. reCAPTCHA:
 * Google's script is added with the page's nonce ('strict-dynamic' trusts what it loads).
 */
import type {} from "altcha/types/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { CaptchaKind } from "~/lib/contact-limits";

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
}

const noSubscription = () => () => {};

let altchaLoaded: Promise<void> | undefined;
function loadAltcha(): Promise<void> {
  altchaLoaded ??= (async () => {
    await import("altcha/altcha.css");
    await import("altcha/external");
    await import("altcha/i18n/sv");
    const { default: Pbkdf2Worker } = await import("altcha/workers/pbkdf2?worker");
    const registry = (globalThis as unknown as { $altcha: { algorithms: Map<string, () => Worker> } }).$altcha;
    registry.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
  })();
  return altchaLoaded;
}

const WIDGET_CONFIGURATION = JSON.stringify({ hideFooter: true });

interface AltchaElement extends HTMLElement {
  reset: () => void;
}

function AltchaCaptcha({ lang, label, loadingText, onToken, resetSignal }: CaptchaProps) {
  // Nothing on the server and without JavaScript: the page's <noscript> explains.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
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
          configuration={WIDGET_CONFIGURATION}
        />
      ) : inBrowser ? (
        <p className="text-body-secondary small mb-0">{loadingText}</p>
      ) : null}
    </div>
  );
}

declare global {
  interface Window {
    grecaptcha?: {
      render: (el: HTMLElement, opts: Record<string, unknown>) => number;
      reset: (id?: number) => void;
    };
    hittadRecaptchaLoaded?: () => void;
  }
}

function RecaptchaCaptcha({ lang, label, siteKey, nonce, onToken, resetSignal }: CaptchaProps) {
  const ref = useRef<HTMLDivElement>(null);
  const widgetId = useRef<number | undefined>(undefined);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    const render = () => {
      if (!ref.current || widgetId.current !== undefined || !window.grecaptcha) return;
      widgetId.current = window.grecaptcha.render(ref.current, {
        sitekey: siteKey,
        callback: (token: string) => onTokenRef.current(token),
        "expired-callback": () => onTokenRef.current(null),
        "error-callback": () => onTokenRef.current(null),
      });
    };
    if (window.grecaptcha) return render();
    window.hittadRecaptchaLoaded = render;
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?onload=hittadRecaptchaLoaded&render=explicit&hl=${lang}`;
    script.async = true;
    if (nonce) script.nonce = nonce;
    document.head.appendChild(script);
  }, [lang, siteKey, nonce]);

  useEffect(() => {
    if (resetSignal && widgetId.current !== undefined) window.grecaptcha?.reset(widgetId.current);
  }, [resetSignal]);

  return <div ref={ref} role="group" aria-label={label} className="captcha mb-3" />;
}

export function Captcha(props: CaptchaProps) {
  return props.kind === "recaptcha" ? <RecaptchaCaptcha {...props} /> : <AltchaCaptcha {...props} />;
}
