/**
 * Why a form that messages someone else is not offered (decision 046): the account's email
 * is not verified, and only accountable accounts send invitations or codes (or, on the
 * webhooks page, requests to an endpoint). The button
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

/** `text`: the page's own translation key for what waits for the confirmation (the alerts' and contacts' by default). */
export function UnverifiedSenderNotice({ text = "recipients.unverified.text" }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-warning unverified-sender" role="note">
      <p className="mb-2">{t(text)}</p>
      <Form method="post" action="/user/verify-email">
        <button type="submit" className="btn btn-sm btn-primary">
          {t("recipients.unverified.resend")}
        </button>
      </Form>
    </div>
  );
}
