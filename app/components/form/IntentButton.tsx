/**
 * One button posting one intent about one row of a list (decision 059): an invitation's or
 * an API key's "Revoke", an endpoint's "Disable". A plain form (it works before
 * hydration), its hidden fields the row's id; `ariaLabel` names the row for screen readers
 * when the visible label alone ("Revoke") would be one of many alike.
 */
import { Form } from "react-router";

export function IntentButton({
  intent,
  fields,
  label,
  ariaLabel,
  danger = false,
  className,
}: {
  intent: string;
  /** Hidden fields beside the intent: the row's id under the name its action reads. */
  fields: Record<string, string>;
  label: string;
  ariaLabel?: string;
  danger?: boolean;
  /** The form's classes (its place in the row). */
  className?: string;
}) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={`btn btn-sm ${danger ? "btn-outline-danger" : "btn-outline-secondary"}`}
        aria-label={ariaLabel}
      >
        {label}
      </button>
    </Form>
  );
}
