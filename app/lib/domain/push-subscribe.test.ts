import { afterEach, describe, expect, it, vi } from "vitest";
import { PUSH_STEP_TIMEOUT_MS, PushTimeoutError, pushCapability, pushProblemOf, withTimeout } from "./push-subscribe";

const domError = (name: string) => Object.assign(new Error(name), { name });

afterEach(() => {
  vi.useRealTimers();
});

describe("turning on push: a step that hangs times out (issue #46 point 10)", () => {
  it("a push service that never answers fails after the step's limit, not after minutes", async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    const result = withTimeout(never, "subscribe").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(PUSH_STEP_TIMEOUT_MS - 1);
    let settled = false;
    void result.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await result;
    expect(err).toBeInstanceOf(PushTimeoutError);
    expect(pushProblemOf("subscribe", err)).toBe("unreachable");
    expect(PUSH_STEP_TIMEOUT_MS).toBeLessThanOrEqual(20_000);
  });

  it("a step that answers in time gives its value and leaves no timer behind", async () => {
    vi.useFakeTimers();
    await expect(withTimeout(Promise.resolve(7), "save")).resolves.toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("turning on push: each failure says what the person can do", () => {
  it("the push service failing (AbortError) is unreachable, not 'please try again'", () => {
    expect(pushProblemOf("subscribe", domError("AbortError"))).toBe("unreachable");
  });
  it("a browser that cannot register the service worker (private window, site data blocked) cannot keep notifications", () => {
    for (const name of ["SecurityError", "InvalidStateError", "TypeError", "NotSupportedError"]) {
      expect(pushProblemOf("worker", domError(name))).toBe("cannotKeep");
    }
    expect(pushProblemOf("worker", new PushTimeoutError("worker"))).toBe("cannotKeep");
    expect(pushProblemOf("subscribe", domError("InvalidStateError"))).toBe("cannotKeep");
  });
  it("a refused permission at any step is denied", () => {
    expect(pushProblemOf("subscribe", domError("NotAllowedError"))).toBe("denied");
    expect(pushProblemOf("worker", domError("NotAllowedError"))).toBe("denied");
  });
  it("our server not answering is unreachable; other errors saving may be tried again", () => {
    expect(pushProblemOf("save", new PushTimeoutError("save"))).toBe("unreachable");
    expect(pushProblemOf("save", new TypeError("Failed to fetch"))).toBe("failed");
  });
  it("a browser with the Push API but no service worker (Firefox's private window) cannot keep them", () => {
    expect(pushCapability({ hasServiceWorker: false, hasPushManager: true, hasNotification: true })).toBe("cannotKeep");
    expect(pushCapability({ hasServiceWorker: true, hasPushManager: false, hasNotification: true })).toBe(
      "unsupported",
    );
    expect(pushCapability({ hasServiceWorker: true, hasPushManager: true, hasNotification: true })).toBe("ok");
  });
});
