/**
 * The claim's HTTP plumbing shared by /claim and /product/register?sticker={id}
 * (decision 036): the sticker named in the URL, checked before the form is shown.
 */
import type { Deps } from "../service-deps.server";
import { serviceErrorResponse } from "../http/errors.server";
import { claimErrors } from "./stickers.http.server";
import { checkClaimable, type Claimable } from "./stickers.service.server";

/** The `sticker` query parameter (an id) with the client's IP, or undefined. */
export function stickerParam(request: Request, ip: string): { id: string; ip: string } | undefined {
  const id = new URL(request.url).searchParams.get("sticker");
  return id ? { id: id.slice(0, 64), ip } : undefined;
}

/** The claimable sticker of the URL, null without one; the error page when it is not claimable. */
export async function stickerToClaim(
  deps: Pick<Deps, "db" | "config" | "clock">,
  request: Request,
  userId: string,
  ip: string,
): Promise<Omit<Claimable, "id"> | null> {
  const param = stickerParam(request, ip);
  if (!param) return null;
  try {
    const { code, prepaidMonths } = await checkClaimable(deps, { userId, ip }, { id: param.id });
    return { code, prepaidMonths };
  } catch (err) {
    return serviceErrorResponse(claimErrors, err);
  }
}
