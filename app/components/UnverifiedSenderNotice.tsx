/**
 * Why a form that messages someone else is not offered (decision 046): the account's email
 * is not verified, and only accountable accounts send invitations or codes. The button
 * asks /user/verify-email for another link (as VerifyEmailNotice does).
 */
import { Form, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";
import type { SessionUser } from "~/lib/domain/session-user";

/** Whether the signed-in user's email is verified (the root loader's user; the server decides again). */
export function useSenderVerified(): boolean {
  const root = useRouteLoaderData("root") as { user: SessionUser | null } | undefined;
  return root?.user?.emailVerified === true;
}

export function UnverifiedSenderNotice() {
  const { t } = useTranslation();
  return (
    <div className="alert alert-warning unverified-sender" role="note">
      <p className="mb-2">{t("recipients.unverified.text")}</p>
      <Form method="post" action="/user/verify-email">
        <button type="submit" className="btn btn-sm btn-primary">
          {t("recipients.unverified.resend")}
        </button>
      </Form>
    </div>
  );
}
