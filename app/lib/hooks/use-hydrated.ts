import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML, while the page hydrates and without JavaScript; true once the
 * page's script runs (the render right after hydration). For the parts only a running
 * script can use, and for what a browser without JavaScript needs instead.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
