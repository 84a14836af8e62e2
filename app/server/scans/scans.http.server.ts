/** Lost mode's error codes as HTTP answers (decision 011). */
import { errorTable } from "../http/errors.server";
import { ScanError, type ScanErrorCode } from "./scans.service.server";

export const scanErrors = errorTable<ScanErrorCode>(ScanError, {
  notFound: { status: 404, key: "items.errorLoadProduct", on: "page" },
});
