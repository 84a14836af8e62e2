import { useTranslation } from "react-i18next";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/home";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "home");
}

export default function Home() {
  const { t } = useTranslation();
  return (
    <section className="py-5">
      <h1>{t("home.title")}</h1>
      <p className="lead">{t("home.lead")}</p>
    </section>
  );
}
