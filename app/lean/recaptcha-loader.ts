/**
 * Google's reCAPTCHA (CAPTCHA=recaptcha) for the full app's Captcha and for the lean pages'
 * captcha script (decision 042): its script loaded once, on first use, and a widget
 * rendered into an element, reporting a token, or null when it expires or fails.
 */
declare global {
  interface Window {
    grecaptcha?: {
      render: (el: HTMLElement, opts: Record<string, unknown>) => number;
      reset: (id?: number) => void;
    };
    hittadRecaptchaLoaded?: () => void;
  }
}

/** Renders a widget into `el` once Google's script is there (loading it if need be); `ready` gets its id. */
export function renderRecaptcha(
  el: HTMLElement,
  opts: { siteKey: string | undefined; lang: string; nonce?: string },
  onToken: (token: string | null) => void,
  ready: (id: number) => void = () => {},
): void {
  const render = () => {
    if (!window.grecaptcha) return;
    ready(
      window.grecaptcha.render(el, {
        sitekey: opts.siteKey,
        callback: (token: string) => onToken(token),
        "expired-callback": () => onToken(null),
        "error-callback": () => onToken(null),
      }),
    );
  };
  if (window.grecaptcha) return render();
  window.hittadRecaptchaLoaded = render;
  const script = document.createElement("script");
  script.src = `https://www.google.com/recaptcha/api.js?onload=hittadRecaptchaLoaded&render=explicit&hl=${opts.lang}`;
  script.async = true;
  if (opts.nonce) script.nonce = opts.nonce;
  document.head.append(script);
}
