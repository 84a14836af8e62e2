/**
 * React Router's `<Scripts>`, with its module scripts fetched after the first paint
 * (decision 045, "Module scripts after the first paint").
 *
 * `<Scripts>` writes a `<link rel="modulepreload">` for every module the page starts with
 * (React DOM, React Router, the route modules and their chunks: ~140 KB gzip on the
 * dashboard), which React hoists into `<head>`, and an inline module script that imports
 * them and hydrates. The browser fetches all of them while the stylesheet loads: on a slow
 * network they share its bandwidth and the first paint waits for bytes it does not need.
 * Here the same output is kept but for two things: the module preloads are not written, and
 * the module script's text is written as an inert data block. A small inline script starts
 * both (the same preloads, the same module text, so the same files in parallel) once the
 * first contentful paint has happened, or at once when the tab is hidden (it will not paint).
 *
 * Everything React Router decides (which modules, the manifest, the hydration data) stays
 * its own: `<Scripts>` is called and only its output is rearranged. Should that output
 * change shape (no module script, or preloads with integrity hashes), it is returned as it
 * is, and the page loads as before.
 */
import { Fragment, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts } from "react-router";

type ScriptsProps = Parameters<typeof Scripts>[0];

/** Marks the inert copy of React Router's module script; the starter reads it. */
const DEFERRED_TYPE = "text/x-module-after-paint";

/**
 * Runs in the page (a classic inline script, allowed by the nonce). Starts the modules once
 * the first contentful paint has been reported (on the first frame after it where paint
 * timing is not available), at once in a hidden tab, and after a second at the latest.
 * Written out without line breaks; each statement ends with a semicolon.
 */
const STARTER = `(() => {
  const me = document.currentScript;
  const block = me.previousElementSibling;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of (block.dataset.preload || "").split(" ")) {
      if (!href) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      link.nonce = me.nonce;
      document.head.append(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = me.nonce;
    script.textContent = block.textContent;
    document.head.append(script);
  };
  const afterPaint = () => setTimeout(start, 0);
  if (document.visibilityState !== "visible") return start();
  document.addEventListener("visibilitychange", start, { once: true });
  setTimeout(start, 1000);
  if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      afterPaint();
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(() => requestAnimationFrame(afterPaint));
  }
})();`.replace(/\n\s*/g, "");

function flatten(node: ReactNode): ReactNode[] {
  if (Array.isArray(node)) return node.flatMap(flatten);
  if (isValidElement<{ children?: ReactNode }>(node) && node.type === Fragment) return flatten(node.props.children);
  return node == null || node === false ? [] : [node];
}

type LinkProps = { rel?: string; href?: string; integrity?: string; crossOrigin?: string };
type ScriptProps = { type?: string; dangerouslySetInnerHTML?: { __html: string } };

export function DeferredScripts(props: ScriptsProps) {
  // Called, not rendered, to rearrange its output: its hooks (contexts, a memo and the
  // effect that marks the page hydrated) run in this component, in the same order each time.
  const scripts = Scripts(props);
  if (!scripts) return null;
  const parts = flatten(scripts);
  const preloads: string[] = [];
  let moduleScript: ReactElement<ScriptProps> | undefined;
  const kept: ReactNode[] = [];
  for (const part of parts) {
    if (isValidElement<LinkProps>(part) && part.type === "link" && part.props.rel === "modulepreload") {
      if (part.props.integrity || part.props.crossOrigin || !part.props.href) return scripts;
      preloads.push(part.props.href);
    } else if (isValidElement<ScriptProps>(part) && part.type === "script" && part.props.type === "module") {
      if (moduleScript || !part.props.dangerouslySetInnerHTML) return scripts;
      moduleScript = part;
    } else {
      kept.push(part);
    }
  }
  if (!moduleScript) return scripts;
  return (
    <>
      {kept.map((part, i) => (
        <Fragment key={i}>{part}</Fragment>
      ))}
      <script
        type={DEFERRED_TYPE}
        data-preload={[...new Set(preloads)].join(" ")}
        suppressHydrationWarning
        dangerouslySetInnerHTML={moduleScript.props.dangerouslySetInnerHTML}
      />
      <script nonce={props.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: STARTER }} />
    </>
  );
}
