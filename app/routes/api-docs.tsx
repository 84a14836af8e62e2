/**
 * /api/docs (decision 054): the REST API's reference, server-rendered from its OpenAPI
 * document (/api/v1/openapi.json) in the reader's language: the basics (keys, errors,
 * pagination, idempotency, limits), every endpoint with its parameters, body, answers and
 * a curl example, and every schema. No script of its own; public, like the document.
 */
import { data } from "react-router";
import { useTranslation } from "~/i18n/react";
import { pageMeta } from "~/lib/domain/meta";
import { apiDocs } from "~/server/api/docs.server";
import { requestContext } from "~/server/context";
import { getDeps } from "~/server/deps.server";
import type { Route } from "./+types/api-docs";

export const handle = { i18n: ["api"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "api.docs");
}

export async function loader({ context }: Route.LoaderArgs) {
  // In the reader's language (the language cookie, else Accept-Language): no shared cache.
  return data(apiDocs(await getDeps(), context.get(requestContext).lang), {
    headers: { "Cache-Control": "private, max-age=300", Vary: "Cookie, Accept-Language" },
  });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function ApiDocsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { docs, limit } = loaderData;
  return (
    <div className="py-4 api-docs">
      <h1 className="mb-3">{t("api.docs.title")}</h1>
      <p>{t("api.docs.intro")}</p>
      <p>
        <a href={docs.documentUrl}>{t("api.docs.document")}</a>
      </p>
      <section aria-labelledby="api-basics" className="mb-4">
        <h2 id="api-basics" className="h3">
          {t("api.docs.basics.title")}
        </h2>
        <ul>
          {(["auth", "format", "errors", "idempotency"] as const).map((k) => (
            <li key={k}>{t(`api.docs.basics.${k}`)}</li>
          ))}
          <li>{t("api.docs.basics.limits", { count: limit })}</li>
        </ul>
      </section>
      <section aria-labelledby="api-operations" className="mb-4">
        <h2 id="api-operations" className="h3">
          {t("api.docs.operations")}
        </h2>
        {docs.operations.map((op) => (
          <article
            key={op.operationId}
            id={op.operationId}
            className="card mb-3"
            aria-labelledby={`${op.operationId}-title`}
          >
            <div className="card-body">
              <h3 id={`${op.operationId}-title`} className="h5 text-break">
                <code>{`${op.method} /api/v1${op.path}`}</code>
              </h3>
              <p>{t(`api.docs.ops.${op.operationId}`)}</p>
              {op.params.length > 0 ? (
                <>
                  <h4 className="h6">{t("api.docs.parameters")}</h4>
                  <ul className="small">
                    {op.params.map((p) => (
                      <li key={`${p.in}-${p.name}`} className="text-break">
                        <code>{p.name}</code> ({p.in}, {t(p.required ? "api.docs.required" : "api.docs.optional")}):{" "}
                        <code>{p.type}</code> <Described text={p.description} />
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {op.body ? (
                <p className="small mb-2">
                  {t("api.docs.body")}: <a href={`#schema-${op.body}`}>{op.body}</a>
                </p>
              ) : null}
              <h4 className="h6">{t("api.docs.responses")}</h4>
              <ul className="small">
                {op.responses.map((r) => (
                  <li key={r.status}>
                    {r.status}: <code>{r.schema ?? "–"}</code>
                  </li>
                ))}
              </ul>
              <h4 id={`${op.operationId}-example`} className="h6">
                {t("api.docs.example")}
              </h4>
              {/* Wider than a phone: it scrolls, so the keyboard must reach it (axe's scrollable-region-focusable). */}
              <pre
                className="bg-body-tertiary p-2 small mb-0 api-docs-example"
                tabIndex={0}
                role="region"
                aria-labelledby={`${op.operationId}-example ${op.operationId}-title`}
              >
                <code>{op.curl}</code>
              </pre>
            </div>
          </article>
        ))}
      </section>
      <section aria-labelledby="api-schemas">
        <h2 id="api-schemas" className="h3">
          {t("api.docs.schemas")}
        </h2>
        {docs.schemas.map((s) => (
          <section key={s.name} id={`schema-${s.name}`} className="mb-3" aria-labelledby={`schema-${s.name}-title`}>
            <h3 id={`schema-${s.name}-title`} className="h5">
              {s.name}
            </h3>
            <ul className="small">
              {s.fields.map((f) => (
                <li key={f.name} className="text-break">
                  <code>{f.name}</code> ({t(f.required ? "api.docs.required" : "api.docs.optional")}):{" "}
                  <code>{f.type}</code> <Described text={f.description} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </section>
    </div>
  );
}

/** A description as OpenAPI writes it (CommonMark): `code` spans as code, the rest as text. */
function Described({ text }: { text: string }) {
  return text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
