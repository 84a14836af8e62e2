import { data } from "react-router";
import { isItemId } from "~/lib/domain/ids";
import { hashOfPhotoFile } from "~/lib/domain/photos";
import { getSessionUser } from "~/server/auth/session.server";
import { getDeps } from "~/server/deps.server";
import { readServedPhoto } from "~/server/photos/photos.service.server";
import type { Route } from "./+types/item-photo";

/**
 * GET /product/{id}/photo/{hash}.webp — one variant of an item's photo (decision 035). The
 * name is the SHA-256 of the bytes, so a URL's content never changes: `immutable`. Public
 * photos to anyone; a private one only to the item's managers, 404 for everyone else (the
 * same answer as for no such photo). `private` in every case: a shared cache must not keep
 * a photo its owner may make private tomorrow (decision 035).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const hash = hashOfPhotoFile(params.file);
  if (!isItemId(params.id) || hash === null) throw data(null, { status: 404 });
  const deps = await getDeps();
  const photo = await readServedPhoto(deps, async () => (await getSessionUser(request))?.ref ?? null, params.id, hash);
  if (!photo) throw data(null, { status: 404 });
  const etag = `"${hash}"`;
  const headers = {
    "Content-Type": "image/webp",
    "Cache-Control": "private, max-age=31536000, immutable",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(photo.bytes), {
    headers: { ...headers, "Content-Length": String(photo.bytes.length) },
  });
}
