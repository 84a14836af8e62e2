import type { ReactNode } from "react";
import { useHydrated } from "~/lib/hooks/use-hydrated";

/**
 * `children(hydrated)`, as `useHydrated()` in the caller would give, but only this subtree
 * renders again once the page has hydrated. React renders every reader of the hook a second
 * time right after hydration, in one task it cannot split; read in a route component, that
 * was the whole page again, a long task on a phone (decision 045, "A second render of the
 * whole page after hydration"). Elements the caller builds outside `children` keep their
 * identity, so React skips them in that second render.
 */
export function Hydrated({ children }: { children: (hydrated: boolean) => ReactNode }) {
  return children(useHydrated());
}
