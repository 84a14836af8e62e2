/**
 * A sentence that changes while the page is open (a character counter, a total that follows
 * the ticks), written so that it stays live after a page translator has run (decision 057).
 * Chrome's translate replaces each text node with `<font>` elements holding the
 * translation; a renderer that then updates or removes its own text node changes a node that
 * is no longer in the page, and the figure freezes while checkout charges another amount.
 *
 * So each value is an element of its own marked `translate="no"` (a translator leaves its
 * text node where the renderer put it, and translating a figure changes nothing), and the
 * words around it are elements keyed by their text: when the words change ("1 character"
 * becomes "2 characters") the renderer replaces the element, which the translator then
 * translates afresh, instead of writing into a text node the translator took away.
 */
import type { ReactNode } from "react";

export function LiveText({ text, values }: { text: string; values: readonly string[] }): ReactNode {
  const parts: ReactNode[] = [];
  let rest = text;
  values.forEach((value, i) => {
    const at = value ? rest.indexOf(value) : -1;
    if (at < 0) return;
    if (at > 0) parts.push(<span key={`t${i}:${rest.slice(0, at)}`}>{rest.slice(0, at)}</span>);
    parts.push(
      <span key={`v${i}`} translate="no" className="live-value">
        {value}
      </span>,
    );
    rest = rest.slice(at + value.length);
  });
  if (rest) parts.push(<span key={`t:${rest}`}>{rest}</span>);
  return parts;
}
