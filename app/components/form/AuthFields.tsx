/**
 * The email and password fields of the sign-in pages (login, register, password reset),
 * defined once so their browser hints (type, autocomplete, required, minLength) and
 * labels cannot drift apart between the pages.
 */
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { PASSWORD_MIN } from "~/lib/domain/password";
import { Field } from "./Field";

export function EmailField({ id, error, defaultValue }: { id: string; error?: string; defaultValue: string }) {
  const { t } = useTranslation();
  return (
    <Field
      id={id}
      name="email"
      label={t("auth.fields.email")}
      error={error}
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
    />
  );
}

/**
 * `choosing`: a new password (the requirements as help, minLength, `new-password` for the
 * browser's password manager); otherwise the current one.
 */
export function PasswordField({
  id,
  error,
  choosing,
  label,
}: {
  id: string;
  error?: string;
  choosing: boolean;
  label?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Field
      id={id}
      name="password"
      label={label ?? t("auth.fields.password")}
      error={error}
      help={choosing ? t("auth.password.requirements") : undefined}
      type="password"
      autoComplete={choosing ? "new-password" : "current-password"}
      required
      minLength={choosing ? PASSWORD_MIN : undefined}
    />
  );
}
