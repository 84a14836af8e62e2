/** Orders' error codes as HTTP answers (decision 011): status and translation key per code. */
import type { HttpErrorTable } from "../http/errors.server";
import type { OrderErrorCode } from "./orders.service.server";

export const orderErrors: HttpErrorTable<OrderErrorCode> = {
  nothingSelected: { status: 400, key: "orders.errors.nothingSelected" },
  unknownItems: { status: 400, key: "orders.errors.unknownItems" },
  alreadyInvoiced: { status: 409, key: "orders.errors.alreadyInvoiced" },
  alreadyPaid: { status: 400, key: "orders.errors.alreadyPaid" },
  noAddress: { status: 400, key: "orders.errors.noAddress" },
  checkoutFailed: { status: 502, key: "orders.errors.checkoutFailed" },
  notFound: { status: 404, key: "orders.errors.notFound" },
  notRenewing: { status: 409, key: "orders.errors.notRenewing" },
  cancelFailed: { status: 502, key: "orders.errors.cancelFailed" },
  notCancelled: { status: 409, key: "billing.errors.notCancelled" },
  ended: { status: 409, key: "billing.errors.ended" },
  resumeFailed: { status: 502, key: "billing.errors.resumeFailed" },
  itemsDeleted: { status: 409, key: "billing.errors.itemsDeleted" },
  checkoutCancelled: { status: 409, key: "orders.errors.checkoutCancelled" },
  tooManyItems: { status: 400, key: "orders.errors.tooManyItems" },
  noPortal: { status: 404, key: "billing.errors.noPortal" },
  portalFailed: { status: 502, key: "billing.errors.portalFailed" },
  invoiceOrganisationOnly: { status: 400, key: "orders.errors.invoiceOrganisationOnly" },
  invoiceAdminOnly: { status: 403, key: "orders.errors.invoiceAdminOnly" },
  invoiceYearlyOnly: { status: 400, key: "orders.errors.invoiceYearlyOnly" },
  invoiceFailed: { status: 502, key: "orders.errors.invoiceFailed" },
  forbidden: { status: 403, key: "orders.errors.invoiceForbidden" },
  rateLimited: {
    status: 429,
    key: "orders.errors.rateLimited",
    headers: (params) => ({ "Retry-After": String(Number(params.count ?? 1) * 60) }),
  },
};
