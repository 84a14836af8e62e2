/**
 * A stopping server drains (decision 048): from SIGTERM on, /readyz answers 503 so a load
 * balancer stops sending new requests, while the ones that still come are answered for
 * SHUTDOWN_DELAY_MS before the listener closes (server.js).
 */
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
