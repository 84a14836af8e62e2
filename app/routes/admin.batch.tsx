import { Form, Link, redirect } from "react-router";
import { z } from "zod";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { orErrorPage } from "~/server/http/errors.server";
import { intent, intentAction } from "~/server/http/form-action.server";
import { batchErrors } from "~/server/stickers/stickers.http.server";
import { getBatch, voidBatch, voidSticker } from "~/server/stickers/stickers.service.server";
import type { Route } from "./+types/admin.batch";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "stickers"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "stickers.batches"), { name: "robots", content: "noindex" }];
}

/** /admin/batches/{id} (staff only, 404 otherwise): counts, downloads, voiding. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { batch } = await orErrorPage(batchErrors, getBatch(await getDeps(), params.id));
  const done = new URL(request.url).searchParams.get("done");
  return { batch, done: done === "batch" || done === "sticker" ? done : null };
}

type VoidValues = { sticker: string };
const stickerValues = (form: FormData): VoidValues => ({ sticker: String(form.get("sticker") ?? "").slice(0, 64) });

/** intent=voidBatch: void its unclaimed stickers; intent=voidSticker: one, by code or id. */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const deps = await getDeps();
  const done = (what: string) => redirect(`/admin/batches/${params.id}?done=${what}`);
  return intentAction(
    request,
    { errors: batchErrors, values: stickerValues },
    {
      voidBatch: intent({
        schema: z.object({}),
        async handle() {
          await voidBatch(deps, params.id);
          return done("batch");
        },
      }),
      voidSticker: intent({
        schema: z.object({
          sticker: z
            .unknown()
            .optional()
            .transform((v) => String(v ?? "").slice(0, 64)),
        }),
        async handle(input) {
          await voidSticker(deps, params.id, input.sticker);
          return done("sticker");
        },
      }),
    },
  );
}

export default function AdminBatch({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { batch: b, done } = loaderData;
  const result = actionData as ActionResult<VoidValues> | undefined;
  const base = `/admin/batches/${b.id}`;
  return (
    <section className="py-4" aria-labelledby="batch-title">
      <p>
        <Link to="/admin/batches">{t("stickers.batch.back")}</Link>
      </p>
      <h1 id="batch-title" className="text-break">
        {b.label || t("stickers.batches.list.noLabel")}
      </h1>
      {done ? (
        <FormAlert variant="success" message={`stickers.batch.${done === "batch" ? "void" : "voidOne"}.done`} />
      ) : null}
      <dl className="row">
        <dt className="col-sm-4">{t("stickers.batch.created")}</dt>
        <dd className="col-sm-8">{formatDate(b.createdAt, lang)}</dd>
        <dt className="col-sm-4">{t("stickers.batch.size")}</dt>
        <dd className="col-sm-8">{b.size.toLocaleString(lang)}</dd>
        <dt className="col-sm-4">{t("stickers.batch.claimed")}</dt>
        <dd className="col-sm-8" data-testid="batch-claimed">
          {b.claimed.toLocaleString(lang)}
        </dd>
        <dt className="col-sm-4">{t("stickers.batch.voided")}</dt>
        <dd className="col-sm-8">{b.voided.toLocaleString(lang)}</dd>
        <dt className="col-sm-4">{t("stickers.batch.prepaid")}</dt>
        <dd className="col-sm-8">
          {b.prepaidMonths ? t("stickers.months", { count: b.prepaidMonths }) : t("stickers.notPrepaid")}
        </dd>
        <dt className="col-sm-4">{t("stickers.batch.status")}</dt>
        <dd className="col-sm-8">
          {b.voidedAt === null
            ? t("stickers.status.active")
            : t("stickers.status.voided", { date: formatDate(b.voidedAt, lang) })}
        </dd>
      </dl>
      <h2 className="h4">{t("stickers.batch.downloads")}</h2>
      <ul>
        <li>
          <a href={`${base}/stickers.pdf?lang=sv`}>{t("stickers.batch.pdf")}</a>
        </li>
        <li>
          <a href={`${base}/stickers.pdf?lang=en`}>{t("stickers.batch.pdfEn")}</a>
        </li>
        <li>
          <a href={`${base}/stickers.csv`}>{t("stickers.batch.csv")}</a>
        </li>
      </ul>
      {b.voidedAt === null ? (
        <>
          <section className="card mb-3" aria-labelledby="void-one" style={{ maxWidth: "36rem" }}>
            <div className="card-body">
              <h2 id="void-one" className="h5">
                {t("stickers.batch.voidOne.title")}
              </h2>
              <FormAlert message={result?.formError} />
              <Form method="post" noValidate>
                <input type="hidden" name="intent" value="voidSticker" />
                <Field
                  id="void-sticker"
                  name="sticker"
                  label={t("stickers.batch.voidOne.label")}
                  help={t("stickers.batch.voidOne.help")}
                  defaultValue={result?.values.sticker ?? ""}
                  error={result?.fieldErrors.sticker}
                  autoComplete="off"
                  spellCheck={false}
                />
                <button type="submit" className="btn btn-outline-danger">
                  {t("stickers.batch.voidOne.submit")}
                </button>
              </Form>
            </div>
          </section>
          <section className="card mb-3 border-danger" aria-labelledby="void-all" style={{ maxWidth: "36rem" }}>
            <div className="card-body">
              <h2 id="void-all" className="h5">
                {t("stickers.batch.void.title")}
              </h2>
              <p>{t("stickers.batch.void.help")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="voidBatch" />
                <button type="submit" className="btn btn-danger">
                  {t("stickers.batch.void.submit")}
                </button>
              </Form>
            </div>
          </section>
        </>
      ) : null}
    </section>
  );
}
