import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After a client-side navigation to a `#fragment`, focus its target when the page made it a
 * focus target (`tabIndex={-1}`: a page's status message, a list's heading), as a browser
 * does when it loads a page at a fragment. React Router only scrolls there. A form's
 * redirect back (PRG) names where the focus belongs: without this, a button that its own
 * action removed (a revoked key's, a deleted endpoint's) left the focus on <body>, and a
 * keyboard or screen-reader user started again from the top of the page.
 */
export function useFragmentFocus(): void {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    // The page's first load: the browser has done it already.
    if (first.current) {
      first.current = false;
      return;
    }
    if (!location.hash) return;
    let id: string;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    const target = document.getElementById(id);
    if (target?.getAttribute("tabindex") === "-1") target.focus({ preventScroll: true });
  }, [location.key, location.hash]);
}
