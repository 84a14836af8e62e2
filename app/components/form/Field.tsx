/**
 * The form kit (decision 011): a labelled input or textarea with its translated error,
 * wired for screen readers (aria-invalid, aria-describedby). Errors arrive as translation
 * keys from the action's ActionResult and are translated here.
 */
import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useEffect } from "react";
import { useActionData } from "react-router";
import { useTranslation } from "~/i18n/react";
import { formatInteger } from "~/i18n/translate";
import { useFieldValue } from "~/lib/hooks/use-field-value";
import { useLang } from "~/lib/hooks/use-lang";
import { LiveText } from "../LiveText";

interface Common {
  /** The input's id; the error's id is `${id}-error`, the help text's `${id}-help`. */
  id: string;
  name: string;
  label: ReactNode;
  /** A translation key, as ActionResult.fieldErrors carries it. */
  error?: string | undefined;
  help?: ReactNode;
  /** Bootstrap column classes of the wrapper; default: full width with a bottom margin. */
  className?: string;
  /**
   * A length limit shown as a live character counter (decision 018) instead of `maxLength`,
   * which would cut pasted text silently; the server refuses what is too long.
   */
  counter?: number;
}

/** The wrapper, label, help and error around one control; `control` gets the wiring props. */
function FieldShell({
  id,
  name,
  label,
  error,
  help,
  className = "mb-3",
  counter,
  initialValue = "",
  valueLength,
  control,
}: Common & { initialValue?: string; valueLength?: number; control: (wiring: ControlWiring) => ReactNode }) {
  const { t } = useTranslation();
  const lang = useLang();
  // What the field holds, typed before hydration included (decision 032).
  const length = useFieldValue(id, initialValue).length;
  const described = [error ? `${id}-error` : null, help ? `${id}-help` : null, counter ? `${id}-counter` : null]
    .filter(Boolean)
    .join(" ");
  // After every refused submit (a new action answer, the same message again included) the
  // first field with an error takes the focus, unless the form's alert or an earlier field
  // has it: a refusal said beside its field alone (a service's `on: { field }`) has no alert.
  const answer = useActionData();
  useEffect(() => {
    if (!error || answer === undefined) return;
    const active = document.activeElement;
    if (active?.getAttribute("aria-invalid") === "true" || active?.getAttribute("role") === "alert") return;
    document.getElementById(id)?.focus();
  }, [answer, error, id]);
  // A controlled field's value is the truth (it is cleared after a send); else what was typed.
  const left = counter === undefined ? 0 : counter - (valueLength ?? length);
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {control({
        id,
        name,
        className: `form-control${error ? " is-invalid" : ""}`,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": described || undefined,
      })}
      {counter ? (
        <div id={`${id}-counter`} className={`form-text field-counter${left < 0 ? " text-danger fw-bold" : ""}`}>
          {/* Live after a page translator too (decision 057). */}
          <LiveText
            text={left < 0 ? t("common.counterOver", { count: -left }) : t("common.counter", { count: left })}
            values={[formatInteger(Math.abs(left), lang)]}
          />
        </div>
      ) : null}
      {help ? (
        <div id={`${id}-help`} className="form-text">
          {help}
        </div>
      ) : null}
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {t(error)}
        </div>
      ) : null}
    </div>
  );
}

interface ControlWiring {
  id: string;
  name: string;
  className: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

export function Field({
  id,
  name,
  label,
  error,
  help,
  className,
  counter,
  ...input
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "className">) {
  return (
    <FieldShell
      {...{ id, name, label, error, help, className, counter }}
      initialValue={String(input.defaultValue ?? "")}
      valueLength={input.value === undefined ? undefined : String(input.value).length}
      control={(w) => <input {...w} {...input} maxLength={counter ? undefined : input.maxLength} />}
    />
  );
}

export function TextareaField({
  id,
  name,
  label,
  error,
  help,
  className,
  counter,
  ...textarea
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "className">) {
  return (
    <FieldShell
      {...{ id, name, label, error, help, className, counter }}
      initialValue={String(textarea.defaultValue ?? "")}
      valueLength={textarea.value === undefined ? undefined : String(textarea.value).length}
      control={(w) => <textarea {...w} {...textarea} maxLength={counter ? undefined : textarea.maxLength} />}
    />
  );
}
