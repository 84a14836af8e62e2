import { useState } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { MAX_PHOTOS_PER_ITEM, type PhotoView } from "~/lib/domain/photos";
import { PhotoPicker } from "./PhotoPicker";

/**
 * The owner's photos of an item (decision 035): each with its state and small POST
 * forms (make private/public, move up/down, delete), and the upload form for the slots
 * left. Every form posts to /product/{id}/photos, so it all works without JavaScript.
 */
export function PhotoManager({
  itemId,
  name,
  photos,
  headingLevel = 2,
}: {
  itemId: string;
  name: string;
  photos: PhotoView[];
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const [shrinking, setShrinking] = useState(false);
  const action = `/product/${itemId}/photos`;
  const Heading = `h${headingLevel}` as const;
  const left = MAX_PHOTOS_PER_ITEM - photos.length;
  return (
    <section id="photos" className="mt-4 photo-manager" aria-labelledby="photos-heading">
      <Heading id="photos-heading" className="h4">
        {t("photos.manage.title")}
      </Heading>
      <p>{t("photos.manage.intro")}</p>
      {photos.length === 0 ? (
        <p className="photo-none">{t("photos.manage.none")}</p>
      ) : (
        <ol className="list-unstyled photo-list">
          {photos.map((p, i) => {
            const alt = t("photos.manage.alt", { n: i + 1, name });
            return (
              <li key={p.id} className="d-flex flex-wrap align-items-start gap-3 mb-3 photo-item">
                <img
                  src={p.thumb.url}
                  srcSet={`${p.thumb.url} 160w, ${p.small.url} 320w`}
                  sizes="160px"
                  width={p.thumb.width}
                  height={p.thumb.height}
                  alt={alt}
                  loading="lazy"
                  className="rounded border photo-thumb"
                />
                <div>
                  <p className="mb-2">
                    <span className={`badge ${p.private ? "text-bg-secondary" : "text-bg-success"}`}>
                      {t(p.private ? "photos.manage.privateBadge" : "photos.manage.publicBadge")}
                    </span>
                  </p>
                  <div className="d-flex flex-wrap gap-2">
                    <PhotoButton action={action} photoId={p.id} intent={p.private ? "public" : "private"}>
                      {t(p.private ? "photos.manage.makePublic" : "photos.manage.makePrivate")}
                    </PhotoButton>
                    {i > 0 ? (
                      <PhotoButton
                        action={action}
                        photoId={p.id}
                        intent="up"
                        label={`${t("photos.manage.moveUp")}: ${alt}`}
                      >
                        {t("photos.manage.moveUp")}
                      </PhotoButton>
                    ) : null}
                    {i < photos.length - 1 ? (
                      <PhotoButton
                        action={action}
                        photoId={p.id}
                        intent="down"
                        label={`${t("photos.manage.moveDown")}: ${alt}`}
                      >
                        {t("photos.manage.moveDown")}
                      </PhotoButton>
                    ) : null}
                    <PhotoButton
                      action={action}
                      photoId={p.id}
                      intent="delete"
                      danger
                      label={`${t("photos.manage.delete")}: ${alt}`}
                    >
                      {t("photos.manage.delete")}
                    </PhotoButton>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <Form method="post" action={action} encType="multipart/form-data" className="photo-upload">
        <input type="hidden" name="intent" value="upload" />
        <PhotoPicker id={`photo-upload-${itemId}`} left={left} onBusy={setShrinking} />
        {left > 0 ? (
          <>
            <div className="form-check mb-2">
              <input className="form-check-input" type="checkbox" name="private" id={`photo-private-${itemId}`} />
              <label className="form-check-label" htmlFor={`photo-private-${itemId}`}>
                {t("photos.manage.uploadPrivate")}
              </label>
            </div>
            <button type="submit" className="btn btn-primary" disabled={shrinking}>
              {t("photos.manage.upload")}
            </button>
          </>
        ) : null}
      </Form>
    </section>
  );
}

function PhotoButton({
  action,
  photoId,
  intent,
  danger,
  label,
  children,
}: {
  action: string;
  photoId: string;
  intent: string;
  danger?: boolean;
  label?: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="photoId" value={photoId} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={label}
        className={`btn btn-sm ${danger ? "btn-outline-danger" : "btn-outline-secondary"}`}
      >
        {children}
      </button>
    </Form>
  );
}
