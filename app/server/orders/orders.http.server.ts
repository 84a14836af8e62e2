/** Orders' error codes as HTTP answers (decision 011): status and translation key per code. */
import type { HttpErrorTable } from "../http/errors.server";
import type { OrderErrorCode } from "./order-error.server";

export const orderErrors: HttpErrorTable<OrderErrorCode> = {
  nothingSelected: { status: 400, key: "orderErrors.nothingSelected" },
  unknownItems: { status: 400, key: "orderErrors.unknownItems" },
  alreadyInvoiced: { status: 409, key: "orderErrors.alreadyInvoiced" },
  alreadyPaid: { status: 400, key: "orderErrors.alreadyPaid" },
  // The address form then marks each missing field.
  noAddress: { status: 400, key: "orderErrors.noAddress", on: { redirect: "/user/register-adress?missing=1" } },
  checkoutFailed: { status: 502, key: "orderErrors.checkoutFailed" },
  notFound: { status: 404, key: "orderErrors.notFound", on: "page" },
  notRenewing: { status: 409, key: "orderErrors.notRenewing" },
  cancelFailed: { status: 502, key: "orderErrors.cancelFailed" },
  notCancelled: { status: 409, key: "orderErrors.notCancelled" },
  ended: { status: 409, key: "orderErrors.ended" },
  resumeFailed: { status: 502, key: "orderErrors.resumeFailed" },
  itemsDeleted: { status: 409, key: "orderErrors.itemsDeleted" },
  checkoutCancelled: { status: 409, key: "orderErrors.checkoutCancelled" },
  tooManyItems: { status: 400, key: "orderErrors.tooManyItems" },
  noPortal: { status: 404, key: "orderErrors.noPortal" },
  portalFailed: { status: 502, key: "orderErrors.portalFailed" },
  invoiceOrganisationOnly: { status: 400, key: "orderErrors.invoiceOrganisationOnly" },
  invoiceAdminOnly: { status: 403, key: "orderErrors.invoiceAdminOnly" },
  invoiceYearlyOnly: { status: 400, key: "orderErrors.invoiceYearlyOnly" },
  invoiceFailed: { status: 502, key: "orderErrors.invoiceFailed" },
  invoiceVerifyEmail: { status: 403, key: "orderErrors.invoiceVerifyEmail" },
  invoiceBillingUnconfirmed: { status: 403, key: "orderErrors.invoiceBillingUnconfirmed" },
  invoiceOverdue: { status: 409, key: "orderErrors.invoiceOverdue" },
  invoiceCreditLimit: { status: 409, key: "orderErrors.invoiceCreditLimit" },
  forbidden: { status: 403, key: "orderErrors.invoiceForbidden" },
  immediateStartRequired: { status: 400, key: "orderErrors.immediateStartRequired", on: { field: "immediateStart" } },
  withdrawalBusiness: { status: 403, key: "orderErrors.withdrawalBusiness" },
  withdrawalExpired: { status: 409, key: "orderErrors.withdrawalExpired" },
  withdrawn: { status: 409, key: "orderErrors.withdrawn" },
  notWithdrawable: { status: 409, key: "orderErrors.notWithdrawable" },
  refundFailed: { status: 502, key: "orderErrors.refundFailed" },
  rateLimited: {
    status: 429,
    key: "orderErrors.rateLimited",
    headers: (params) => ({ "Retry-After": String(Number(params.count ?? 1) * 60) }),
  },
};
