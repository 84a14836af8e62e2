import { useTranslation } from "~/i18n/react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { formatDate } from "~/lib/domain/dates";
import type { ActionResult } from "~/lib/forms/form";
import { parseSelection, shipFormSchema } from "~/lib/domain/fulfil";
import { parseShipmentFilter, SHIPMENT_FILTERS } from "~/lib/forms/fulfil-filters";
import { pageMeta } from "~/lib/domain/meta";
import { addressLines } from "~/lib/forms/order-form";
import { formatStickerCode } from "~/lib/domain/sticker-code";
import { useLang } from "~/lib/hooks/use-lang";
import { requireAdmin } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { fulfilErrors } from "~/server/fulfil/fulfil.http.server";
import { markShipped, shipmentQueue } from "~/server/fulfil/fulfil.service.server";
import { formAction } from "~/server/http/form-action.server";
import { badRequest } from "~/server/http/form.server";
import type { Route } from "./+types/admin.shipments";

/** Translation areas the page renders besides the root's (app/i18n/areas.ts, decision 020). */
export const handle = { i18n: ["fulfil"] };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "fulfil.admin");
}

/** The staff queue (decision 015): admins only; everyone else gets the 404 page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const queue = await shipmentQueue(await getDeps(), parseShipmentFilter(params));
  const done = Number(params.get("done"));
  return { ...queue, done: Number.isSafeInteger(done) && done >= 0 && params.has("done") ? done : null };
}

type ShipValues = { tracking: string };

const trackingValues = (form: FormData): ShipValues => ({ tracking: String(form.get("tracking") ?? "") });

/** Mark shipped: one shipment (its row's form, with a tracking number) or the selected ones. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return formAction(
    request,
    { errors: fulfilErrors, values: trackingValues },
    {
      schema: shipFormSchema,
      invalidOn: "page",
      async handle(input, form) {
        const selection = parseSelection(form);
        if (!selection) badRequest();
        const { shipped } = await markShipped(await getDeps(), { id: admin.ref }, selection, input.tracking);
        // Post-redirect-get: a reload does not submit again (and would change nothing anyway).
        return redirect(`/admin/shipments?status=pending&done=${shipped}`);
      },
    },
  );
}

const FILTER_LABELS = {
  pending: "fulfil.admin.filterPending",
  shipped: "fulfil.admin.filterShipped",
  dropped: "fulfil.admin.filterDropped",
} as const;
const EMPTY = {
  pending: "fulfil.admin.empty",
  shipped: "fulfil.admin.emptyShipped",
  dropped: "fulfil.admin.emptyDropped",
} as const;

function pdfHref(kind: "stickers" | "labels", ids: string[]) {
  return `/admin/shipments/${kind}.pdf?shipments=${ids.map(encodeURIComponent).join(",")}`;
}

export default function AdminShipments({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { status, shipments, counts, done } = loaderData;
  const result = actionData as ActionResult<ShipValues> | undefined;
  const busy = useNavigation().state !== "idle";
  const pending = status === "pending";

  return (
    <section className="py-4" aria-labelledby="shipments-title">
      <h1 id="shipments-title">{t("fulfil.admin.title")}</h1>
      <p>
        {t("fulfil.admin.countPending", { count: counts.pending })},{" "}
        {t("fulfil.admin.countShipped", { count: counts.shipped })},{" "}
        {t("fulfil.admin.countDropped", { count: counts.dropped })}
      </p>
      <nav aria-label={t("fulfil.admin.filter")} className="mb-3">
        <ul className="nav nav-pills">
          {SHIPMENT_FILTERS.map((f) => (
            <li key={f} className="nav-item">
              <Link
                className={`nav-link${status === f ? " active" : ""}`}
                aria-current={status === f ? "page" : undefined}
                to={`?status=${f}`}
              >
                {t(FILTER_LABELS[f])}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <FormAlert message={result?.formError} />
      {done !== null ? (
        <div className="alert alert-success" role="status">
          {done > 0 ? t("fulfil.admin.shipped", { count: done }) : t("fulfil.admin.shippedNone")}
        </div>
      ) : null}

      {shipments.length === 0 ? (
        <p>{t(EMPTY[status])}</p>
      ) : (
        <>
          {status === "dropped" ? <p>{t("fulfil.admin.droppedIntro")}</p> : null}
          {/* Rows' checkboxes belong to this form through their `form` attribute. */}
          {/* Nothing to print or post for dropped shipments (decision 051). */}
          {status !== "dropped" ? (
            <Form method="post" id="bulk" className="d-flex flex-wrap gap-2 align-items-center mb-3">
              <p className="w-100 mb-1 small text-body-secondary">{t("fulfil.admin.bulkHint")}</p>
              <input type="hidden" name="intent" value="ship" />
              <button
                type="submit"
                className="btn btn-outline-primary"
                formAction="/admin/shipments/stickers.pdf"
                formMethod="get"
                formTarget="_blank"
              >
                {t("fulfil.admin.stickers")}
              </button>
              <button
                type="submit"
                className="btn btn-outline-primary"
                formAction="/admin/shipments/labels.pdf"
                formMethod="get"
                formTarget="_blank"
              >
                {t("fulfil.admin.labels")}
              </button>
              {pending ? (
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {t("fulfil.admin.markSelected")}
                </button>
              ) : null}
            </Form>
          ) : null}
          <ul className="list-group shipment-list">
            {shipments.map((s) => {
              const created = formatDate(s.createdAt, lang);
              const checkboxId = `select-${s.id}`;
              return (
                <li key={s.id} className="list-group-item py-3">
                  <div className="d-flex flex-wrap gap-2 align-items-start justify-content-between">
                    <div className="form-check">
                      <input
                        className="form-check-input"
                        type="checkbox"
                        id={checkboxId}
                        name="shipments"
                        value={s.id}
                        form="bulk"
                        disabled={s.droppedAt !== null}
                      />
                      <label className="form-check-label fw-semibold text-break" htmlFor={checkboxId}>
                        <span className="visually-hidden">
                          {t("fulfil.admin.select", { owner: s.ownerName || s.ownerEmail, date: created })}
                        </span>
                        <span aria-hidden="true">{s.ownerName || s.ownerEmail}</span>
                      </label>
                    </div>
                    <span className="badge text-bg-secondary">
                      {s.kind === "order"
                        ? t("fulfil.admin.kindOrder")
                        : `${t("fulfil.admin.kindReplacement")} (${t(s.mode === "newCode" ? "fulfil.admin.modeNewCode" : "fulfil.admin.modeReprint")})`}
                    </span>
                  </div>
                  <dl className="row small mb-2 mt-2">
                    <dt className="col-sm-3">{t("fulfil.admin.owner")}</dt>
                    <dd className="col-sm-9 text-break">{s.ownerEmail}</dd>
                    <dt className="col-sm-3">{t("fulfil.admin.created")}</dt>
                    <dd className="col-sm-9">{created}</dd>
                    <dt className="col-sm-3">{t("fulfil.admin.address")}</dt>
                    <dd className="col-sm-9 text-break shipment-address">
                      {s.address ? addressLines(s.address, { label: true }).join("\n") : t("fulfil.admin.noAddress")}
                    </dd>
                    {s.count !== null ? (
                      <>
                        <dt className="col-sm-3">{t("fulfil.admin.package")}</dt>
                        <dd className="col-sm-9">{t("fulfil.admin.packageCount", { count: s.count })}</dd>
                      </>
                    ) : null}
                    <dt className="col-sm-3">{t("fulfil.admin.items")}</dt>
                    <dd className="col-sm-9">
                      <ul className="list-unstyled mb-0">
                        {s.items.map((i) => (
                          <li key={i.id} className="text-break">
                            <span className="sticker-code">{formatStickerCode(i.code)}</span> {i.name}
                          </li>
                        ))}
                      </ul>
                    </dd>
                    {s.shippedAt !== null ? (
                      <>
                        <dt className="col-sm-3">{t("fulfil.admin.shippedOn", { date: "" }).trim()}</dt>
                        <dd className="col-sm-9">
                          {formatDate(s.shippedAt, lang)}
                          {s.trackingNumber ? ` · ${t("fulfil.admin.trackingShort")}: ${s.trackingNumber}` : ""}
                        </dd>
                      </>
                    ) : null}
                    {s.droppedAt !== null ? (
                      <>
                        <dt className="col-sm-3">{t("fulfil.admin.note")}</dt>
                        <dd className="col-sm-9 shipment-note">
                          {t("fulfil.admin.dropped.accountDeleted", { date: formatDate(s.droppedAt, lang) })}
                        </dd>
                      </>
                    ) : null}
                  </dl>
                  {s.droppedAt === null ? (
                    <p className="d-flex flex-wrap gap-3 mb-2 small">
                      <a href={pdfHref("stickers", [s.id])}>{t("fulfil.admin.stickersOne")}</a>
                      <a href={pdfHref("labels", [s.id])}>{t("fulfil.admin.labelsOne")}</a>
                    </p>
                  ) : null}
                  {pending ? (
                    <Form method="post" className="d-flex flex-wrap gap-2 align-items-end">
                      <input type="hidden" name="intent" value="ship" />
                      <input type="hidden" name="shipments" value={s.id} />
                      <div className="flex-grow-1">
                        <label htmlFor={`tracking-${s.id}`} className="form-label small mb-1">
                          {t("fulfil.admin.tracking")}
                        </label>
                        <input
                          id={`tracking-${s.id}`}
                          name="tracking"
                          className="form-control form-control-sm"
                          maxLength={64}
                          autoComplete="off"
                        />
                      </div>
                      <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
                        {t("fulfil.admin.markShipped")}
                      </button>
                    </Form>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
