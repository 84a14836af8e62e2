/**
 * The message for a whole form (decision 011): an alert region that takes the focus when
 * it appears, so keyboard and screen-reader users land on what went wrong.
 */
import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/react";
import type { FormMessage } from "~/lib/forms/form";

export function FormAlert({
  message,
  variant = "danger",
  className = "",
}: {
  message: FormMessage | string | null | undefined;
  variant?: "danger" | "success" | "warning" | "info";
  className?: string;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const text = !message ? null : typeof message === "string" ? t(message) : t(message.key, message.params ?? {});
  // Each failed submit moves focus here again (a new message object each time) and
  // scrolls it into view: on a phone the summary is otherwise off-screen (decision 018).
  useEffect(() => {
    const el = ref.current;
    if (!text || !el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [text, message]);
  if (!text) return null;
  return (
    <div ref={ref} tabIndex={-1} className={`alert alert-${variant} ${className}`.trim()} role="alert">
      {text}
    </div>
  );
}
