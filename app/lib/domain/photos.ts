/**
 * Item photos as pages show them (decision 035): browser-safe types, limits and URLs.
 * The rules are in app/server/photos/.
 */

/** At most this many photos per item. */
export const MAX_PHOTOS_PER_ITEM = 3;
/** The largest file accepted (the server refuses more; the browser downscales before). */
export const PHOTO_MAX_MB = 15;
/** What the file input offers; the server checks the content, not this. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";
/** The form field of the upload (with and without JavaScript). */
export const PHOTO_FIELD = "photo";

export interface PhotoVariantView {
  url: string;
  width: number;
  height: number;
}

/** A photo with its variants by nominal width (160, 320, 640, 1280). */
export interface PhotoView {
  id: string;
  private: boolean;
  thumb: PhotoVariantView;
  small: PhotoVariantView;
  medium: PhotoVariantView;
  large: PhotoVariantView;
}

export function photoUrl(itemId: string, hash: string): string {
  return `/product/${itemId}/photo/${hash}.webp`;
}

/** `{hash}.webp` of a served photo's path segment; null for anything else. */
export function hashOfPhotoFile(file: string | undefined): string | null {
  const m = /^([0-9a-f]{64})\.webp$/.exec(file ?? "");
  return m ? m[1]! : null;
}
