import { useTranslation } from "~/i18n/react";
import { Form } from "react-router";

/**
 * One button per configured social provider (unconfigured ones are not shown, so
 * there is never a dead button). A plain form POST: the action answers with a
 * redirect to the provider, which needs no JavaScript.
 */
export function SocialButtons({ providers, mode }: { providers: string[]; mode: "login" | "register" }) {
  const { t } = useTranslation();
  if (providers.length === 0) return null;
  return (
    <Form method="post" reloadDocument className="d-grid gap-2 mb-3">
      <input type="hidden" name="intent" value="social" />
      {providers.map((p) => (
        <button key={p} type="submit" name="provider" value={p} className={`btn btn-outline-dark social-${p}`}>
          {t(mode === "login" ? "auth.social.signInWith" : "auth.social.registerWith", {
            provider: t(`auth.providers.${p}`),
          })}
        </button>
      ))}
    </Form>
  );
}
