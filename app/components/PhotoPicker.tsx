import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { downscalePhoto } from "~/lib/domain/photo-downscale";
import { MAX_PHOTOS_PER_ITEM, PHOTO_ACCEPT, PHOTO_FIELD, PHOTO_MAX_MB } from "~/lib/domain/photos";

/**
 * The photo field of the product form and of the item's photo section (decision 035).
 * Without JavaScript a plain file input in a multipart form (field `photo`). With it, each
 * chosen photo is shown and, when large, replaced in the input by a smaller JPEG drawn on
 * a canvas (app/lib/domain/photo-downscale.ts) before the form is sent. `onBusy` tells the form
 * to hold its submit buttons while that runs.
 */
export function PhotoPicker({
  id,
  left,
  onBusy,
  labelKey,
}: {
  id: string;
  /** How many more photos the item can take. */
  left: number;
  onBusy?: (busy: boolean) => void;
  labelKey?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [previews, setPreviews] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);

  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);

  async function onChange() {
    const el = input.current;
    if (!el?.files) return;
    const chosen = [...el.files];
    setBusy(true);
    onBusy?.(true);
    try {
      const shrunk = await Promise.all(chosen.map((f) => downscalePhoto(f).catch(() => f)));
      // A file still over the limit (not a photo the canvas could draw) is taken out here,
      // before megabytes go over a phone's connection; the server refuses it anyway.
      const smaller = shrunk.filter((f) => f.size <= PHOTO_MAX_MB * 1024 * 1024);
      setRefused(smaller.length < shrunk.length);
      if (smaller.length < chosen.length || smaller.some((f, i) => f !== chosen[i])) {
        const dt = new DataTransfer();
        smaller.forEach((f) => dt.items.add(f));
        el.files = dt.files;
      }
      setPreviews(smaller.filter((f) => f.type.startsWith("image/") && f.size > 0).map((f) => URL.createObjectURL(f)));
    } finally {
      setBusy(false);
      onBusy?.(false);
    }
  }

  if (left <= 0) {
    return <p className="form-text photo-full">{t("photos.form.full", { max: MAX_PHOTOS_PER_ITEM })}</p>;
  }
  return (
    <div className="mb-3 photo-picker">
      <label htmlFor={id} className="form-label">
        {t(labelKey ?? (left < MAX_PHOTOS_PER_ITEM ? "photos.form.addMore" : "photos.form.add"), { left })}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name={PHOTO_FIELD}
        accept={PHOTO_ACCEPT}
        multiple={left > 1}
        className="form-control"
        aria-describedby={`${id}-help`}
        onChange={() => void onChange()}
      />
      <div id={`${id}-help`} className="form-text">
        {t("photos.form.help", { max: MAX_PHOTOS_PER_ITEM, mb: PHOTO_MAX_MB })}
      </div>
      <p className="form-text mb-0" role="status" aria-live="polite">
        {busy ? t("photos.form.shrinking") : ""}
      </p>
      {refused ? (
        <p className="invalid-feedback d-block mb-0" role="alert">
          {t("photos.errors.tooLarge", { max: PHOTO_MAX_MB })}
        </p>
      ) : null}
      {previews.length ? (
        <ul
          className="list-unstyled d-flex flex-wrap gap-2 mt-2 mb-0 photo-previews"
          aria-label={t("photos.form.preview")}
        >
          {previews.map((url, i) => (
            <li key={url}>
              <img
                src={url}
                alt={t("photos.form.previewAlt", { n: i + 1 })}
                width={96}
                height={96}
                className="rounded border photo-preview"
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
