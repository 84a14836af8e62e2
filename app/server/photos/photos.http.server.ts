/** Item photos' error codes as HTTP answers (decision 011): status and translation key per code. */
import type { HttpErrorTable } from "../http/errors.server";
import type { PhotoErrorCode } from "./photos.service.server";

export const photoErrors: HttpErrorTable<PhotoErrorCode> = {
  empty: { status: 400, key: "photos.errors.empty" },
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
