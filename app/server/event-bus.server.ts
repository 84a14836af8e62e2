/**
 * The event bus behind `Deps.events` (decision 053). Start-up (runtime.server.ts) makes one
 * per runtime and subscribes the handlers; services only announce. In-process and awaited:
 * a handler runs inside the announcer's request or job, on its database handle, so its
 * writes share the announcer's transaction and its failure is the announcer's.
 */
import type { DomainEventName, DomainEvents, EventReport } from "./domain-events";
import type { Deps, EventBus } from "./service-deps.server";

/** One subscriber: the event, and the runtime's deps with the announcer's over them. */
export type EventHandler<K extends DomainEventName> = (
  event: DomainEvents[K],
  deps: Deps,
) => Promise<Partial<EventReport> | void>;

type Handlers = { [K in DomainEventName]?: Array<EventHandler<K>> };

export class DomainEventBus implements EventBus {
  private readonly handlers: Handlers = {};

  /** `base`: the runtime's deps, asked at each announcement (the bus is made before them). */
  constructor(private readonly base: () => Deps) {}

  /** Subscribes a handler; start-up only. Handlers run in the order they were subscribed. */
  on<K extends DomainEventName>(name: K, handler: EventHandler<K>): void {
    const list = (this.handlers[name] ?? []) as Array<EventHandler<K>>;
    list.push(handler);
    (this.handlers as Record<K, Array<EventHandler<K>>>)[name] = list;
  }

  async emit<K extends DomainEventName>(
    name: K,
    event: DomainEvents[K],
    deps: Pick<Deps, "db" | "clock">,
  ): Promise<EventReport> {
    const report: EventReport = { mails: 0 };
    const list = (this.handlers[name] ?? []) as Array<EventHandler<K>>;
    if (list.length === 0) return report;
    const merged: Deps = { ...this.base(), ...deps };
    for (const handler of list) {
      const r = await handler(event, merged);
      report.mails += r?.mails ?? 0;
    }
    return report;
  }
}
