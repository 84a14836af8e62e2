/**
 * Claim mode's second way (decision 036): upload the batch file the staff gave the
 * organisation (their `id,code,url` CSV), see which stickers it would claim and which
 * rows are refused, then confirm; without JavaScript too (plain multipart POST).
 */
import { Form } from "react-router";
import { FormAlert } from "~/components/form/FormAlert";
import { useTranslation } from "~/i18n/react";
import { confirmationLines, type BatchFilePreview } from "~/lib/domain/claim-batch-file";
import type { FormMessage } from "~/lib/forms/form";

interface Props {
  action: string;
  members: { id: string; label: string }[];
  assignedTo: string;
  preview: BatchFilePreview | null;
  error: FormMessage | string | null;
  /** How many the last confirmed file claimed (0: none). */
  claimedCount: number;
}

/** Whom the claimed items are assigned to: a member, or nobody (the organisation's). Claim mode's both forms. */
export function AssignSelect({ id, members, value }: { id: string; members: Props["members"]; value: string }) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={id} className="form-label">
        {t("items.assign.label")}
      </label>
      {/* Keyed by the choice: a claim that changes it shows it here too (uncontrolled select). */}
      <select key={value} id={id} name="assignedTo" className="form-select mb-3" defaultValue={value}>
        <option value="">{t("items.assign.nobody")}</option>
        {members.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
      </select>
    </>
  );
}

export function ClaimFileForm({ action, members, assignedTo, preview, error, claimedCount }: Props) {
  const { t } = useTranslation();
  const refusedTotal = preview ? preview.counts.claimed + preview.counts.voided + preview.counts.unknown : 0;
  return (
    <section aria-labelledby="claim-file-title" className="mt-5 claim-file">
      <h2 id="claim-file-title" className="h4">
        {t("organisations.claimMode.file.title")}
      </h2>
      <p>{t("organisations.claimMode.file.help")}</p>
      {claimedCount > 0 && !preview ? (
        <FormAlert
          variant="success"
          message={{ key: "organisations.claimMode.file.done", params: { count: claimedCount } }}
        />
      ) : null}
      <FormAlert message={error} />
      {preview ? (
        <div className="claim-file-preview">
          <p role="status">
            {t("organisations.claimMode.file.claimable", { count: preview.claimable.length })}{" "}
            {preview.prepaid > 0 ? t("organisations.claimMode.file.prepaid", { count: preview.prepaid }) : null}
          </p>
          {refusedTotal > 0 ? (
            <>
              <p>
                {t("organisations.claimMode.file.refused", {
                  claimed: preview.counts.claimed,
                  voided: preview.counts.voided,
                  unknown: preview.counts.unknown,
                })}
              </p>
              <div className="table-responsive">
                <table className="table table-sm">
                  <caption>
                    {t("organisations.claimMode.file.refusedCaption", { count: preview.refused.length })}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("organisations.claimMode.file.row")}</th>
                      <th scope="col">{t("organisations.claimMode.code")}</th>
                      <th scope="col">{t("organisations.claimMode.file.why")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.refused.map((r) => (
                      <tr key={r.row}>
                        <td>{r.row}</td>
                        <td className="text-break">
                          <code>{r.code}</code>
                        </td>
                        <td>{t(`organisations.claimMode.file.reasons.${r.reason}`)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
          {preview.claimable.length > 0 ? (
            <Form method="post" action={action} className="mb-4" style={{ maxWidth: "28rem" }}>
              <input type="hidden" name="intent" value="fileClaim" />
              <input type="hidden" name="stickers" value={confirmationLines(preview.claimable)} />
              <AssignSelect id="claim-file-confirm-assignedTo" members={members} value={assignedTo} />
              <button type="submit" className="btn btn-primary">
                {t("organisations.claimMode.file.confirm", { count: preview.claimable.length })}
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <Form method="post" action={action} encType="multipart/form-data" style={{ maxWidth: "28rem" }}>
        <input type="hidden" name="intent" value="file" />
        <label htmlFor="claim-file" className="form-label">
          {t("organisations.claimMode.file.label")}
        </label>
        <input
          id="claim-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          className="form-control mb-3"
          aria-describedby="claim-file-help"
        />
        <div id="claim-file-help" className="form-text mb-3">
          {t("organisations.claimMode.file.fileHelp")}
        </div>
        {preview ? null : <AssignSelect id="claim-file-assignedTo" members={members} value={assignedTo} />}
        <button type="submit" className={`btn ${preview ? "btn-outline-secondary" : "btn-primary"}`}>
          {t("organisations.claimMode.file.preview")}
        </button>
      </Form>
    </section>
  );
}
