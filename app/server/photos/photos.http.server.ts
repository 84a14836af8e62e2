/** Item photos' error codes as HTTP answers (decision 011), and how a photo form is read. */
import type { FormMessage } from "~/lib/forms/form";
import { MAX_PHOTOS_PER_ITEM, PHOTO_FIELD, PHOTO_MAX_MB } from "~/lib/domain/photos";
import { errorTable } from "../http/errors.server";
import { badRequest, checkedForm, readForm } from "../http/form.server";
import { UploadedFile, type PhotoUpload } from "./photo-upload.server";
import type { PhotoSource } from "./image.server";
import { PhotoError, type PhotoErrorCode } from "./photos.service.server";

export const photoErrors = errorTable<PhotoErrorCode>(PhotoError, {
  empty: { status: 400, key: "photos.errors.empty" },
  noFile: { status: 400, key: "photos.errors.noFile" },
  tooLarge: { status: 413, key: "photos.errors.tooLarge" },
  unsupportedType: { status: 415, key: "photos.errors.unsupportedType" },
  heic: { status: 415, key: "photos.errors.heic" },
  tooManyPixels: { status: 413, key: "photos.errors.tooManyPixels" },
  animated: { status: 415, key: "photos.errors.animated" },
  damaged: { status: 422, key: "photos.errors.damaged" },
  tooMany: { status: 409, key: "photos.errors.tooMany" },
  storageFull: { status: 413, key: "photos.errors.storageFull" },
  organisationStorageFull: { status: 413, key: "photos.errors.organisationStorageFull" },
  rateLimited: {
    status: 429,
    key: "photos.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.minutes ?? 1) * 60) }),
  },
  busy: { status: 429, key: "photos.errors.busy", headers: () => ({ "Retry-After": "10" }) },
  // Upload slots are for accountable accounts only (decision 058).
  unverified: { status: 403, key: "photos.errors.unverified" },
  notFound: { status: 404, key: "photos.errors.notFound" },
});

/**
 * The files of a form's `photo` field (decision 035), where the upload intake put them on
 * disk: the service reads each as it checks and decodes it. A file input left empty sends a
 * nameless, empty part: skipped. A chosen file that is empty is kept (the "empty" message),
 * as is one whose bytes were dropped (one too many: the "too many" message).
 */
export function photoFilesOf(form: FormData): PhotoSource[] {
  return form.getAll(PHOTO_FIELD).flatMap((v): PhotoSource[] => {
    if (typeof v === "string" || (v.size === 0 && v.name === "")) return [];
    return [v instanceof UploadedFile && v.path !== null ? { path: v.path, size: v.size } : new Uint8Array(0)];
  });
}

/**
 * The form of a photo form's POST (decision 050): as the upload intake received it
 * (app/server/photos/photo-upload.server.ts), with its refusal — the upload limit as the
 * files arrived, or "busy" (nothing read, so nothing typed comes back) — or, for a form
 * without files (the photo page's buttons), read as any form. Multipart that did not come
 * through the intake is refused: files reach the routes only counted and bounded.
 */
export async function readPhotoForm(
  request: Request,
  upload: PhotoUpload | undefined,
): Promise<{ form: FormData; refusal: PhotoError | null }> {
  if (upload?.kind === "busy") return { form: new FormData(), refusal: new PhotoError("busy") };
  if (upload?.kind === "unverified") return { form: new FormData(), refusal: new PhotoError("unverified") };
  if (upload?.kind === "received") return { form: checkedForm(upload.form), refusal: upload.refusal };
  if (upload?.kind === "badForm" || /^multipart\//i.test(request.headers.get("content-type") ?? "")) badRequest();
  return { form: await readForm(request), refusal: null };
}

/** The message of a photo form whose body was over its limit (body-limit.server.ts). */
export const BODY_TOO_LARGE_MESSAGE: FormMessage = {
  key: "photos.errors.bodyTooLarge",
  params: { max: PHOTO_MAX_MB, count: MAX_PHOTOS_PER_ITEM },
};
