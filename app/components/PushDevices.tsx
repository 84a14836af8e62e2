/**
 * "Get notifications on this device" and the list of devices that get them (decision 034).
 * The button needs the browser's Push API, so it appears after hydration;
 * without JavaScript the page says so, and the list's "remove" is a plain form.
 */
import { useEffect, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { useTranslation } from "~/i18n/react";
import {
  pushCapability,
  pushProblemOf,
  withTimeout,
  type PushProblem,
  type PushStep,
} from "~/lib/domain/push-subscribe";

export interface PushDevice {
  id: string;
  label: string;
  createdAt: number;
}

type State = "loading" | "unsupported" | "dismissed" | "off" | "busy" | "on" | PushProblem;

const API = "/api/push/subscriptions";

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function capability() {
  return pushCapability({
    hasServiceWorker: "serviceWorker" in navigator && navigator.serviceWorker != null,
    hasPushManager: "PushManager" in window,
    hasNotification: "Notification" in window,
  });
}

/** What the status line says in each state (failed may carry the server's message instead). */
const STATUS_KEYS = {
  unsupported: "push.unsupported",
  cannotKeep: "push.cannotKeep",
  denied: "push.denied",
  dismissed: "push.dismissed",
  unreachable: "push.unreachable",
  failed: "push.failed",
  on: "push.enabled",
  busy: "push.enabling",
} as const satisfies Record<Exclude<State, "loading" | "off">, string>;

/** One step of turning notifications on, with its time limit; a failure names its step. */
class StepFailed extends Error {
  constructor(readonly problem: PushProblem) {
    super(problem);
  }
}
async function step<T>(name: PushStep, run: () => Promise<T>): Promise<T> {
  try {
    return await withTimeout(run(), name);
  } catch (err) {
    throw new StepFailed(pushProblemOf(name, err));
  }
}

/** iPhone or iPad Safari outside the home-screen app: web push needs the app first. */
function needsHomeScreen() {
  const ios =
    /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.maxTouchPoints > 1 && /Mac/.test(navigator.userAgent));
  const standalone =
    window.matchMedia?.("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone;
  return ios && !standalone;
}

/** What this browser can do now: no Push API, blocked, or whether it is subscribed. */
async function detect(): Promise<{ state: State; iphone: boolean }> {
  const iphone = needsHomeScreen();
  const can = capability();
  if (can !== "ok") return { state: can, iphone };
  if (Notification.permission === "denied") return { state: "denied", iphone };
  const sub = await currentSubscription().catch(() => null);
  return { state: sub ? "on" : "off", iphone };
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** The button and its status; `compact` for the offer after registering an item. */
export function PushToggle({ publicKey, compact = false }: { publicKey: string; compact?: boolean }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [state, setState] = useState<State>("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [iphone, setIphone] = useState(false);

  useEffect(() => {
    let live = true;
    void detect().then((found) => {
      if (!live) return;
      setIphone(found.iphone);
      setState(found.state);
    });
    return () => {
      live = false;
    };
  }, []);

  async function enable() {
    setState("busy");
    setMessage(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return setState(permission === "denied" ? "denied" : "dismissed");
      const reg = await step("worker", async () => {
        const r = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
        await navigator.serviceWorker.ready;
        return r;
      });
      const sub = await step("subscribe", async () => {
        // A subscription made with another key (a new VAPID pair) cannot be reused.
        await (await reg.pushManager.getSubscription())?.unsubscribe();
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      });
      const res = await step("save", () =>
        fetch(API, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(sub.toJSON()),
        }),
      );
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        await sub.unsubscribe().catch(() => false);
        setMessage(body.message ?? null);
        return setState("failed");
      }
      setState("on");
      void revalidator.revalidate();
    } catch (err) {
      setState(err instanceof StepFailed ? err.problem : "failed");
    }
  }

  async function disable() {
    setState("busy");
    try {
      const sub = await currentSubscription();
      if (sub) {
        await fetch(API, {
          method: "DELETE",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ endpoint: sub.endpoint }),
        });
        await sub.unsubscribe();
      }
      setState("off");
      void revalidator.revalidate();
    } catch {
      setState("failed");
    }
  }

  const status =
    state === "failed"
      ? (message ?? t("push.failed"))
      : state === "loading" || state === "off"
        ? null
        : t(STATUS_KEYS[state]);

  const toggle = (
    <div className="push-toggle">
      <noscript>
        <p>{t("push.noJs")}</p>
      </noscript>
      <p
        role="status"
        className={
          state === "failed" || state === "denied" || state === "unreachable" || state === "cannotKeep"
            ? "text-danger"
            : undefined
        }
      >
        {status}
      </p>
      {state === "off" || state === "dismissed" || state === "failed" || state === "unreachable" || state === "busy" ? (
        <button type="button" className="btn btn-primary" onClick={enable} disabled={state === "busy"}>
          {t("push.enable")}
        </button>
      ) : null}
      {state === "on" && !compact ? (
        <button type="button" className="btn btn-outline-secondary" onClick={disable}>
          {t("push.disable")}
        </button>
      ) : null}
      {iphone && (state === "unsupported" || state === "off") ? (
        <p className="small mt-2 mb-0">{t("push.iphone")}</p>
      ) : null}
    </div>
  );
  if (!compact) return toggle;
  // The offer after saving an item stays out of the way when there is nothing to do.
  if (state === "on" || state === "loading" || ((state === "unsupported" || state === "cannotKeep") && !iphone))
    return null;
  return (
    <section className="card mb-3" aria-labelledby="push-offer-title">
      <div className="card-body">
        <h2 id="push-offer-title" className="h6 card-title">
          {t("push.offerTitle")}
        </h2>
        <p className="small">{t("push.offerText")}</p>
        {toggle}
      </div>
    </section>
  );
}

export function PushDevices({
  publicKey,
  devices,
  formatDate,
}: {
  publicKey: string;
  devices: PushDevice[];
  formatDate: (ms: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t("push.intro")}</p>
      <PushToggle publicKey={publicKey} />
      <h3 className="h6 mt-4">{t("push.devices")}</h3>
      {devices.length === 0 ? (
        <p className="mb-0">{t("push.noDevices")}</p>
      ) : (
        <ul className="list-unstyled mb-0">
          {devices.map((d) => {
            const name = d.label || t("push.unknownDevice");
            return (
              <li key={d.id} className="d-flex flex-wrap align-items-center gap-2 py-2 border-top">
                <span className="flex-grow-1">
                  {name}
                  <span className="d-block small text-body-secondary">
                    {t("push.added", { date: formatDate(d.createdAt) })}
                  </span>
                </span>
                <Form method="post" action="/account">
                  <input type="hidden" name="intent" value="pushRemove" />
                  <input type="hidden" name="id" value={d.id} />
                  <button
                    type="submit"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={t("push.removeLabel", { device: name })}
                  >
                    {t("push.remove")}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
