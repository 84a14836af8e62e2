import { useCallback, useSyncExternalStore } from "react";

/**
 * Form fields keep what is typed before the page's script runs (decision 032).
 *
 * The server's HTML is a working form, so on a slow phone people type into it before React
 * hydrates. A controlled field (`value={state}`) makes React write its state, which starts
 * from the loader's empty value, back into the DOM at hydration: the typed text is gone.
 * So fields stay uncontrolled (`defaultValue`, which React never writes over) and what the
 * page derives from them (counters, prices, the fee suggestion) reads the DOM through
 * useSyncExternalStore: during hydration it uses the server's value (no mismatch), and
 * right after it React compares the DOM's value and renders again if they differ. That is
 * the post-hydration sync; no state is copied, so nothing can be put back.
 */

type FieldElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function isField(el: Element | null): el is FieldElement {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

function listen(target: EventTarget | null, onChange: () => void): () => void {
  target?.addEventListener("input", onChange);
  target?.addEventListener("change", onChange);
  return () => {
    target?.removeEventListener("input", onChange);
    target?.removeEventListener("change", onChange);
  };
}

/** The live value of the uncontrolled field with this id; `initial` on the server and at hydration. */
export function useFieldValue(id: string, initial: string): string {
  const subscribe = useCallback((onChange: () => void) => listen(document.getElementById(id), onChange), [id]);
  return useSyncExternalStore(
    subscribe,
    () => {
      const el = document.getElementById(id);
      return isField(el) ? el.value : initial;
    },
    () => initial,
  );
}

/** The value of the checked radio button of group `name` (uncontrolled, `defaultChecked`). */
export function useCheckedValue(name: string, initial: string): string {
  const subscribe = useCallback((onChange: () => void) => listen(document, onChange), []);
  return useSyncExternalStore(
    subscribe,
    () => {
      const el = document.querySelector(`input[type=radio][name="${CSS.escape(name)}"]:checked`);
      return el instanceof HTMLInputElement ? el.value : initial;
    },
    () => initial,
  );
}

/**
 * The values of the checked boxes of group `name`, joined by spaces (a string, so the
 * snapshot compares by value); `initial` on the server and at hydration.
 */
export function useCheckedList(name: string, initial: string[]): string[] {
  const subscribe = useCallback((onChange: () => void) => listen(document, onChange), []);
  const joined = useSyncExternalStore(
    subscribe,
    () => {
      const boxes = document.querySelectorAll(`input[type=checkbox][name="${CSS.escape(name)}"]`);
      if (boxes.length === 0) return initial.join(" ");
      return [...boxes]
        .filter((b): b is HTMLInputElement => b instanceof HTMLInputElement && b.checked)
        .map((b) => b.value)
        .join(" ");
    },
    () => initial.join(" "),
  );
  return joined === "" ? [] : joined.split(" ");
}

/** Sets an uncontrolled field's value from code and tells every reader (as typing does). */
export function setFieldValue(id: string, value: string): void {
  const el = document.getElementById(id);
  if (!isField(el)) return;
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Checks an uncontrolled radio button from code and tells every reader (as a click does). */
export function checkRadio(id: string): void {
  const el = document.getElementById(id);
  if (!(el instanceof HTMLInputElement) || el.checked) return;
  el.checked = true;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}
