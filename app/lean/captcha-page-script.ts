/**
 * The captcha on a lean page (decision 042): the sign-in form after too many failures and
 * the contact form, rendered without React. A module file of the client build
 * (scripts/lib/vite-captcha-script.ts), loaded only by a page that shows a captcha, so its
 * weight and ALTCHA's are the captcha's, not the page's.
 *
 * 1. Each `[data-captcha]` group (the Captcha component's lean placeholder) gets its
 *    widget: ALTCHA's web component, whose hidden input carries the solution in a plain
 *    form post, or Google's reCAPTCHA with a hidden input this script fills.
 * 2. A form with `data-json-action` (the contact form) is sent as the spec's contact call
 *    does in the full app: JSON to that URL, never without a captcha solution, with the
 *    same states and texts (`data-texts`); without JavaScript it posts as a plain form.
 */
import { ALTCHA_CONFIGURATION, loadAltcha } from "./altcha-loader";
import { renderRecaptcha } from "./recaptcha-loader";

interface CaptchaHandle {
  token(): string | null;
  reset(): void;
  onToken(listener: (token: string | null) => void): void;
}

interface AltchaElement extends HTMLElement {
  reset(): void;
}

function mountCaptcha(slot: HTMLElement): CaptchaHandle {
  const { captcha, name = "captchaToken", lang = "en", loading = "", siteKey = "", challenge = "" } = slot.dataset;
  let token: string | null = null;
  const listeners: Array<(token: string | null) => void> = [];
  const set = (value: string | null) => {
    token = value;
    for (const l of listeners) l(value);
  };
  let reset: () => void;
  if (captcha === "recaptcha") {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    const holder = document.createElement("div");
    slot.replaceChildren(holder, input);
    let id: number | undefined;
    const fill = (value: string | null) => {
      input.value = value ?? "";
      set(value);
    };
    renderRecaptcha(holder, { siteKey, lang }, fill, (widgetId) => (id = widgetId));
    reset = () => {
      if (id !== undefined) window.grecaptcha?.reset(id);
      fill(null);
    };
  } else {
    const note = document.createElement("p");
    note.className = "text-body-secondary small mb-0";
    note.textContent = loading;
    slot.replaceChildren(note);
    let widget: AltchaElement | undefined;
    void loadAltcha().then(() => {
      const el = document.createElement("altcha-widget") as AltchaElement;
      el.setAttribute("challenge", challenge);
      el.setAttribute("language", lang);
      el.setAttribute("name", name);
      el.setAttribute("configuration", ALTCHA_CONFIGURATION);
      el.addEventListener("statechange", (ev) => {
        const detail = (ev as CustomEvent<{ state: string; payload?: string | null }>).detail;
        set(detail.state === "verified" && detail.payload ? detail.payload : null);
      });
      slot.replaceChildren(el);
      widget = el;
    });
    reset = () => {
      widget?.reset();
      set(null);
    };
  }
  return { token: () => token, reset, onToken: (l) => listeners.push(l) };
}

const FIELDS = ["name", "email", "message"];

function sendAsJson(form: HTMLFormElement, captcha: CaptchaHandle | undefined) {
  const action = form.dataset.jsonAction!;
  const texts = JSON.parse(form.dataset.texts ?? "{}") as Record<string, string>;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const status = form.querySelector<HTMLElement>("[data-form-status]")!;
  const sendLabel = button.textContent;
  let loading = false;

  // The messages shown so far (the server's, after a post without JavaScript, or ours).
  const clear = () => {
    form.querySelectorAll("[data-form-error]").forEach((e) => e.remove());
    status.replaceChildren();
  };
  const fail = (text: string) => {
    clear();
    // As FormAlert in the full app: an alert that takes the focus.
    const alert = document.createElement("div");
    alert.tabIndex = -1;
    alert.className = "alert alert-danger";
    alert.setAttribute("role", "alert");
    alert.setAttribute("data-form-error", "");
    alert.textContent = text;
    button.before(alert);
    alert.focus({ preventScroll: true });
    alert.scrollIntoView({ block: "center", behavior: "smooth" });
  };
  const busy = (on: boolean) => {
    loading = on;
    button.disabled = on;
    button.textContent = on ? (texts.sending ?? sendLabel) : sendLabel;
    form.setAttribute("aria-busy", String(on));
  };
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;

  // Spec: typing resets an error or a success; a solved captcha clears the error too.
  form.addEventListener("input", (ev) => {
    const target = ev.target as HTMLInputElement | null;
    if (target && FIELDS.includes(target.name)) clear();
  });
  captcha?.onToken((token) => {
    if (token) form.querySelectorAll("[data-form-error]").forEach((e) => e.remove());
  });

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (loading) return;
    // noValidate (the widget marks its own checkbox required): our fields are checked here.
    for (const name of FIELDS) {
      const input = field(name);
      if (input && !input.checkValidity()) {
        input.reportValidity();
        return;
      }
    }
    const token = captcha?.token();
    if (!token) {
      // Spec: no request without a captcha solution.
      fail(texts.captchaRequired ?? "");
      return;
    }
    busy(true);
    clear();
    const body: Record<string, string> = { captchaToken: token };
    for (const name of FIELDS) body[name] = field(name)?.value ?? "";
    void fetch(action, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    })
      .then(async (res) => {
        // A used or refused solution cannot be sent again: a new captcha either way.
        captcha?.reset();
        if (res.ok) {
          for (const name of FIELDS) {
            const input = field(name);
            if (input) input.value = "";
          }
          const ok = document.createElement("p");
          ok.className = "alert alert-success";
          ok.setAttribute("role", "status");
          ok.textContent = texts.success ?? "";
          status.replaceChildren(ok);
          return;
        }
        let message = "";
        try {
          const json = (await res.json()) as { message?: unknown };
          if (typeof json.message === "string") message = json.message;
        } catch {
          // Not JSON: the generic text below.
        }
        // The API's message is already in the visitor's language.
        fail(message || (texts.failed ?? ""));
      })
      .catch(() => fail(texts.generic ?? ""))
      .finally(() => busy(false));
  });
}

const handles = new Map<HTMLFormElement | null, CaptchaHandle>();
document.querySelectorAll<HTMLElement>("[data-captcha]").forEach((slot) => {
  handles.set(slot.closest("form"), mountCaptcha(slot));
});
document.querySelectorAll<HTMLFormElement>("form[data-json-action]").forEach((form) => {
  sendAsJson(form, handles.get(form));
});
