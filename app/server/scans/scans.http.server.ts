/** Lost mode's error codes as HTTP answers (decision 011). */
import type { HttpErrorTable } from "../http/errors.server";
import type { ScanErrorCode } from "./scans.service.server";

export const scanErrors: HttpErrorTable<ScanErrorCode> = {
  notFound: { status: 404, key: "items.errorLoadProduct", on: "page" },
};
