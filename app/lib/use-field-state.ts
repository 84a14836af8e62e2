import { useState, type Dispatch, type SetStateAction } from "react";

/**
 * State for a controlled form field that keeps what was typed before the page's script
 * ran (issue #32 point 4). The server's HTML is usable at once, so on a slow phone a user
 * types into it before hydration; a controlled field whose state starts from the loader's
 * value would then put that value back on the next render and silently erase the input.
 * While the page hydrates (the root marks the end with `html[data-hydrated]`), the state
 * starts from the field's current DOM value instead; React does not compare `value`
 * attributes when it hydrates, so this causes no mismatch. After hydration (client-side
 * navigation, a remount) it starts from `initial` as usual.
 */
export function useFieldState(id: string, initial: string): [string, Dispatch<SetStateAction<string>>] {
  return useState(() => typedBeforeHydration(id) ?? initial);
}

/** The value the user typed into the server-rendered field `id`, while the page hydrates. */
export function typedBeforeHydration(id: string): string | null {
  if (typeof document === "undefined" || document.documentElement.dataset.hydrated) return null;
  const el = document.getElementById(id);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
    return el.value;
  }
  return null;
}

/** The value of the checked radio button `name` the user chose before hydration. */
export function checkedBeforeHydration(name: string): string | null {
  if (typeof document === "undefined" || document.documentElement.dataset.hydrated) return null;
  const el = document.querySelector(`input[type=radio][name="${CSS.escape(name)}"]:checked`);
  return el instanceof HTMLInputElement ? el.value : null;
}

/** The values of the checked checkboxes `name` before hydration (null once hydrated). */
export function checkedListBeforeHydration(name: string): string[] | null {
  if (typeof document === "undefined" || document.documentElement.dataset.hydrated) return null;
  const boxes = document.querySelectorAll(`input[type=checkbox][name="${CSS.escape(name)}"]`);
  if (boxes.length === 0) return null;
  return [...boxes].filter((b) => b instanceof HTMLInputElement && b.checked).map((b) => (b as HTMLInputElement).value);
}
