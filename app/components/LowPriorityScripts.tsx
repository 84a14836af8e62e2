import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts, type ScriptsProps } from "react-router";

/**
 * React Router's <Scripts> with its module preloads fetched at low priority, as React DOM
 * fetches the preloads of its own bootstrap modules (decision 045, point 4). A module script
 * never blocks the first paint, but a preload at the default high priority competes with the
 * stylesheet and the page's images for a slow connection. Lighthouse's simulation also counts
 * a high-priority script that finished loading before the observed first paint as blocking it.
 * On a fast machine that decided whether the 150 KB of JavaScript were counted, and the signed-in
 * pages' scores varied between about 92 and 100 from run to run.
 *
 * <Scripts> is called as a function: its hooks become this component's hooks, always called in
 * the same order. What it returns is not changed otherwise, so the server and the browser render
 * the same elements.
 */
export function LowPriorityScripts(props: ScriptsProps) {
  return lowerPreloads(Scripts(props));
}

function lowerPreloads(node: ReactNode): ReactNode {
  if (!isValidElement(node)) return node;
  const element = node as ReactElement<{ rel?: string; children?: ReactNode }>;
  if (element.type === "link" && element.props.rel === "modulepreload") {
    return cloneElement(element as ReactElement<{ fetchPriority?: string }>, { fetchPriority: "low" });
  }
  if (element.props.children === undefined) return element;
  return cloneElement(element, {}, ...Children.toArray(element.props.children).map(lowerPreloads));
}
