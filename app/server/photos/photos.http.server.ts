/** Item photos' error codes as HTTP answers (decision 011): status and translation key per code. */
import type { FormMessage } from "~/lib/form";
import { MAX_PHOTOS_PER_ITEM, PHOTO_FIELD, PHOTO_MAX_MB } from "~/lib/photos";
import type { HttpErrorTable } from "../http/errors.server";
import type { PhotoErrorCode } from "./photos.service.server";

export const photoErrors: HttpErrorTable<PhotoErrorCode> = {
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
  rateLimited: {
    status: 429,
    key: "photos.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.minutes ?? 1) * 60) }),
  },
  notFound: { status: 404, key: "photos.errors.notFound" },
};

/**
 * The files of a form's `photo` field (decision 035). A file input left empty sends a
 * nameless, empty part: skipped. A chosen file that is empty is kept (the "empty" message).
 */
export async function photoFilesOf(form: FormData): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const value of form.getAll(PHOTO_FIELD)) {
    if (typeof value === "string") continue;
    if (value.size === 0 && value.name === "") continue;
    out.push(new Uint8Array(await value.arrayBuffer()));
  }
  return out;
}

/** The message of a photo form whose body was over its limit (body-limit.server.ts). */
export const BODY_TOO_LARGE_MESSAGE: FormMessage = {
  key: "photos.errors.bodyTooLarge",
  params: { max: PHOTO_MAX_MB, count: MAX_PHOTOS_PER_ITEM },
};
