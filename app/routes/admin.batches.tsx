import { Form, Link, redirect } from "react-router";
import { z } from "zod";
import { Field } from "~/components/form/Field";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { pageMeta } from "~/lib/domain/meta";
import {
  BATCH_LABEL_MAX,
  BATCH_MAX,
  parsePrepaid,
  parseSize,
  type BatchFormValues,
} from "~/lib/domain/sticker-batches";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { formAction } from "~/server/http/form-action.server";
import { batchErrors } from "~/server/stickers/stickers.http.server";
import { createBatch, listBatches, StickerError } from "~/server/stickers/stickers.service.server";
import type { Route } from "./+types/admin.batches";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["common", "stickers"] };

export function meta({ matches }: Route.MetaArgs) {
  return [...pageMeta(matches, "stickers.batches"), { name: "robots", content: "noindex" }];
}

/** /admin/batches (decision 036; staff only, 404 to everyone else): the batches and a new one. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { batches: await listBatches(await getDeps()) };
}

const batchValues = (form: FormData): BatchFormValues => ({
  label: String(form.get("label") ?? "").slice(0, 1000),
  size: String(form.get("size") ?? "").slice(0, 20),
  prepaid: String(form.get("prepaid") ?? "").slice(0, 5),
});

/** The fields are read as typed; the service refuses a size or label out of bounds (its codes). */
export async function action({ request }: Route.ActionArgs) {
  const staff = await requireAdmin(request);
  return formAction(
    request,
    { errors: batchErrors, values: batchValues },
    {
      schema: z.object({}),
      async handle(_, form) {
        const values = batchValues(form);
        const prepaidMonths = parsePrepaid(values.prepaid);
        if (prepaidMonths === undefined) throw new StickerError("batch.prepaid");
        const input = { label: values.label, size: parseSize(values.size), prepaidMonths };
        return redirect(`/admin/batches/${await createBatch(await getDeps(), staff.ref, input)}`);
      },
    },
  );
}

export default function AdminBatches({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const result = actionData as ActionResult<BatchFormValues> | undefined;
  const v = result?.values;
  const e = result?.fieldErrors ?? {};
  const { batches } = loaderData;
  return (
    <section className="py-4" aria-labelledby="batches-title">
      <h1 id="batches-title">{t("stickers.batches.title")}</h1>
      <p>{t("stickers.batches.intro")}</p>
      <section className="card mb-4" aria-labelledby="batch-new" style={{ maxWidth: "36rem" }}>
        <div className="card-body">
          <h2 id="batch-new" className="h4">
            {t("stickers.batches.create.title")}
          </h2>
          <FormAlert message={result?.formError} />
          <Form method="post" noValidate>
            <Field
              id="batch-label"
              name="label"
              label={t("stickers.batches.create.label")}
              help={t("stickers.batches.create.labelHelp")}
              defaultValue={v?.label ?? ""}
              error={e.label}
              counter={BATCH_LABEL_MAX}
            />
            <Field
              id="batch-size"
              name="size"
              label={t("stickers.batches.create.size")}
              help={t("stickers.batches.create.sizeHelp", { max: BATCH_MAX.toLocaleString(lang) })}
              defaultValue={v?.size ?? ""}
              error={e.size}
              inputMode="numeric"
              required
            />
            <fieldset className="mb-3" aria-describedby={e.prepaid ? "batch-prepaid-error" : undefined}>
              <legend className="form-label fs-6">{t("stickers.batches.create.prepaid")}</legend>
              {(["", "6", "12"] as const).map((p) => (
                <div className="form-check" key={p || "none"}>
                  <input
                    className="form-check-input"
                    type="radio"
                    name="prepaid"
                    id={`batch-prepaid-${p || "none"}`}
                    value={p}
                    defaultChecked={(v?.prepaid ?? "") === p}
                  />
                  <label className="form-check-label" htmlFor={`batch-prepaid-${p || "none"}`}>
                    {p ? t("stickers.months", { count: Number(p) }) : t("stickers.batches.create.prepaidNone")}
                  </label>
                </div>
              ))}
              {e.prepaid ? (
                <div id="batch-prepaid-error" className="invalid-feedback d-block">
                  {t(e.prepaid)}
                </div>
              ) : null}
            </fieldset>
            <button type="submit" className="btn btn-primary">
              {t("stickers.batches.create.submit")}
            </button>
          </Form>
        </div>
      </section>
      <h2 className="h4">{t("stickers.batches.list.title")}</h2>
      {batches.length === 0 ? (
        <p>{t("stickers.batches.list.empty")}</p>
      ) : (
        <div className="table-responsive">
          <table className="table align-middle">
            <thead>
              <tr>
                <th scope="col">{t("stickers.batches.list.label")}</th>
                <th scope="col">{t("stickers.batches.list.created")}</th>
                <th scope="col" className="text-end">
                  {t("stickers.batches.list.size")}
                </th>
                <th scope="col" className="text-end">
                  {t("stickers.batches.list.claimed")}
                </th>
                <th scope="col">{t("stickers.batches.list.prepaid")}</th>
              </tr>
            </thead>
            <tbody>
              {batches.map((b) => (
                <tr key={b.id}>
                  <td className="text-break">
                    <Link to={`/admin/batches/${b.id}`}>{b.label || t("stickers.batches.list.noLabel")}</Link>
                    {b.voidedAt !== null ? (
                      <span className="badge text-bg-secondary ms-2">{t("stickers.batch.voided")}</span>
                    ) : null}
                  </td>
                  <td>{formatDate(b.createdAt, lang)}</td>
                  <td className="text-end">{b.size.toLocaleString(lang)}</td>
                  <td className="text-end">{b.claimed.toLocaleString(lang)}</td>
                  <td>
                    {b.prepaidMonths ? t("stickers.months", { count: b.prepaidMonths }) : t("stickers.notPrepaid")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
