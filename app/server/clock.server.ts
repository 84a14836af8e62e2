/**
 * The one clock of the process (decision 004): milliseconds since the epoch. Services take
 * theirs from `deps.clock` (tests pass a fixed or stepping one); the infrastructure that
 * runs outside a request (the outbox worker, the caches, the rate limiter's default) reads
 * this one. No other module in app/server calls Date.now() (tests/quality). It imports
 * nothing, so any module may use it without closing a cycle.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
