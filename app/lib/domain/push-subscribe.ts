/**
 * Turning on web push in the browser (decision 034), step by step, each with a time limit
 * (decision 052): a browser whose push service cannot be reached used to leave "Turning on
 * notifications…" spinning for minutes, and a private window was told "Please try again",
 * which can never work there. Each failure is named by the step it happened in, so the page
 * says what the person can do. Browser-safe, no DOM types beyond what the steps throw.
 */

/** How long one step may take: a push service answers in a second or two when it is there. */
export const PUSH_STEP_TIMEOUT_MS = 15_000;

/** The step that did not finish in time. */
export class PushTimeoutError extends Error {
  constructor(readonly step: PushStep) {
    super(`push step ${step} timed out`);
    this.name = "PushTimeoutError";
  }
}

/**
 * `worker`: registering the service worker (a private window or blocked site data refuses
 * it); `subscribe`: the browser's push service; `save`: our server.
 */
export type PushStep = "worker" | "subscribe" | "save";

/**
 * What the page says: `unreachable` (the push service did not answer or failed), `denied`
 * (notifications blocked), `cannotKeep` (this browser cannot keep a subscription here:
 * private window, no service worker, site data blocked), `failed` (anything else: try again).
 */
export type PushProblem = "unreachable" | "denied" | "cannotKeep" | "failed";

/** `promise`, or PushTimeoutError after `ms`; the timer never outlives the step. */
export function withTimeout<T>(promise: Promise<T>, step: PushStep, ms = PUSH_STEP_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushTimeoutError(step)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const nameOf = (err: unknown) => (err && typeof err === "object" && "name" in err ? String(err.name) : "");

/** The problem a failed step stands for (the DOMException names the Push API specifies). */
export function pushProblemOf(step: PushStep, err: unknown): PushProblem {
  const name = nameOf(err);
  if (name === "NotAllowedError") return "denied";
  if (step === "worker") return "cannotKeep";
  if (step === "subscribe") {
    if (err instanceof PushTimeoutError || name === "AbortError") return "unreachable";
    if (name === "InvalidStateError" || name === "NotSupportedError" || name === "SecurityError") return "cannotKeep";
    return "unreachable";
  }
  return err instanceof PushTimeoutError ? "unreachable" : "failed";
}

/**
 * Whether this browser can keep a push subscription at all, before anyone presses the
 * button: no Push API at all is `unsupported`; the API without a service worker container
 * (Firefox's private windows) is `cannotKeep`.
 */
export function pushCapability(env: {
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
}): "ok" | "unsupported" | "cannotKeep" {
  if (!env.hasNotification || !env.hasPushManager) return "unsupported";
  return env.hasServiceWorker ? "ok" : "cannotKeep";
}
