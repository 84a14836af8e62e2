/**
 * "Found something? Enter the code from the sticker" (decision 015): a plain GET form to
 * /find, so it works without JavaScript, on the home page, the 404 page and /find itself.
 * Its strings live in the `errors` area, which every page (the finder's included) loads.
 */
import { useTranslation } from "~/i18n/react";

export function FindCodeForm({
  id = "find-code",
  defaultValue = "",
  invalid = false,
  as: Heading = "h2",
  smsNumber = null,
}: {
  id?: string;
  defaultValue?: string;
  /** The last try failed (the message is in the page's FormAlert, which takes the focus). */
  invalid?: boolean;
  as?: "h1" | "h2";
  /** SMS_NUMBER as printed (decision 055): finders without data may text the code. */
  smsNumber?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <form method="get" action="/find" role="search" aria-labelledby={`${id}-title`} className="find-code-form">
      <Heading id={`${id}-title`} className={Heading === "h1" ? "h2" : "h4"}>
        {t("errors.find.title")}
      </Heading>
      <label htmlFor={id} className="form-label">
        {t("errors.find.label")}
      </label>
      <div className="d-flex flex-wrap gap-2">
        <input
          id={id}
          name="code"
          type="text"
          className={`form-control find-code-input${invalid ? " is-invalid" : ""}`}
          defaultValue={defaultValue}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          required
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-help`}
        />
        <button type="submit" className="btn btn-primary">
          {t("errors.find.submit")}
        </button>
      </div>
      <div id={`${id}-help`} className="form-text">
        {t("errors.find.help")}
      </div>
      {smsNumber ? <p className="form-text find-sms mb-0">{t("errors.find.sms", { number: smsNumber })}</p> : null}
    </form>
  );
}
