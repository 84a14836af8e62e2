/**
 * The push worker (decision 034): sends queued notices as soon as they are queued, and
 * every few seconds for retries and other instances' rows. Rows are claimed one by one
 * with a conditional update, so several instances share the queue without sending twice;
 * a kill -9 leaves at most a claimed row, taken again after its lock expires.
 */
import type { Deps } from "../service-deps.server";
import { logger } from "../logger.server";
import { deliverDuePush, onPushQueued } from "./push.service.server";

export interface PushWorker {
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function startPushWorker(deps: Pick<Deps, "db" | "config" | "clock" | "push">, pollMs: number): PushWorker {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  function kick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        if (stopped) return;
        try {
          await deliverDuePush(deps);
        } catch (err) {
          logger.warn({ err }, "push worker could not read the queue");
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  const unsubscribe = onPushQueued(() => void kick());
  const timer = setInterval(() => void kick(), pollMs);
  timer.unref();
  void kick();
  return {
    drain: kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      await running;
    },
  };
}
