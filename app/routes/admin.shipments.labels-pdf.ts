import { pdfResponse } from "~/server/fulfil/pdf.http.server";
import { addressLabels } from "~/server/fulfil/sheets.server";
import type { Route } from "./+types/admin.shipments.labels-pdf";

/** GET /admin/shipments/labels.pdf?shipments=…&orders=…: the address labels (admins only, 404 otherwise). */
export function loader({ request }: Route.LoaderArgs) {
  return pdfResponse(request, "hittad-labels.pdf", addressLabels);
}
