/** The loader of both PDF downloads: guard, parse, call, answer (decision 011). */
import { data } from "react-router";
import { parseSelection } from "~/lib/domain/fulfil";
import { requireAdmin } from "../auth/session.server";
import { getDeps } from "../deps.server";
import type { Deps } from "../service-deps.server";
import { httpErrorOf } from "../http/errors.server";
import { fulfilErrors } from "./fulfil.http.server";
import { FulfilError, type Selection } from "./fulfil.service.server";
import { pdfFileResponse } from "../http/file-response.server";

export async function pdfResponse(
  request: Request,
  filename: string,
  make: (deps: Deps, sel: Selection) => Promise<Buffer>,
): Promise<Response> {
  await requireAdmin(request);
  const sel = parseSelection(new URL(request.url).searchParams);
  if (!sel) throw data(null, { status: 400 });
  try {
    const pdf = await make(await getDeps(), sel);
    return pdfFileResponse(pdf, filename);
  } catch (err) {
    if (!(err instanceof FulfilError)) throw err;
    throw data(null, { status: httpErrorOf(fulfilErrors, err).status });
  }
}
