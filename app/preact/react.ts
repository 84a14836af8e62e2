/**
 * What Preact's React compatibility layer lacks for Hittad's pages in the browser
 * (decision 044). The server renders with React 19; in the client build
 * scripts/lib/vite-react-on-preact.ts makes `react` this module's exports beside
 * `preact/compat`'s, and `react-dom` and `react-dom/client` Preact's.
 */
import { Fragment, options, type ComponentChildren, type VNode } from "preact";

/**
 * React Router calls `useOptimistic` for its router state, and sets an optimistic value only
 * inside a transition it starts with `unstable_useTransitions`, which Hittad does not use.
 * Preact runs transitions at once, so an optimistic value would be replaced in the same
 * render: the passthrough value is what React would show too.
 */
export function useOptimistic<S, A = S>(
  passthrough: S,
  _reducer?: (state: S, action: A) => S,
): [S, (action: A) => void] {
  return [passthrough, () => {}];
}

/**
 * The root layout renders `<html>`; Preact renders a document's tree into
 * `document.documentElement` (preactjs/preact#3794), which would put a second `<html>`
 * inside the first. In the browser `<html>` is a fragment, and its attributes (`lang`
 * changes in place with the language switch) are set on the document's element.
 */
const before = options.vnode;
/** The attributes the last `<html>` set, to remove the ones a later render drops. */
let applied = new Set<string>();
options.vnode = (vnode: VNode) => {
  if (vnode.type === "html" && typeof document !== "undefined") {
    const { children, ...props } = vnode.props as { children?: ComponentChildren } & Record<string, unknown>;
    const root = document.documentElement;
    const now = new Set<string>();
    for (const [name, value] of Object.entries(props)) {
      if (typeof value !== "string") continue;
      now.add(name);
      if (root.getAttribute(name) !== value) root.setAttribute(name, value);
    }
    for (const name of applied) if (!now.has(name)) root.removeAttribute(name);
    applied = now;
    vnode.type = Fragment;
    vnode.props = { children };
  }
  before?.(vnode);
};
