import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "~/i18n/react";

/**
 * "Copy link" beside a read-only field. Rendered only once the page's
 * script runs: without JavaScript there is no clipboard to write to, and a button that
 * does nothing would mislead. The result is announced in a polite live region of its own,
 * present (empty) from the start so screen readers hear the change, but not a
 * `role="status"`: a page's status is its own announcement (the finder's "sent", decision 057), and an
 * empty second status beside it is two live regions for one thing.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const ready = useSyncExternalStore(
    noSubscription,
    () => !!navigator.clipboard,
    () => false,
  );
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!ready) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-primary"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        {label}
      </button>
      <span className="ms-2 small align-self-center copy-result" aria-live="polite" aria-atomic="true">
        {state === "idle" ? "" : t(state === "copied" ? "common.copy.copied" : "common.copy.failed")}
      </span>
    </>
  );
}

const noSubscription = () => () => {};
