/** The orders feature's one error (decision 011): codes only, mapped to HTTP in orders.http.server.ts. */
import { ServiceError } from "../service-error.server";

export type OrderErrorCode =
  | "nothingSelected"
  | "unknownItems"
  | "alreadyPaid"
  /** Decision 036: prepaid items ordered ahead only together, ending within a month. */
  | "prepaidMixed"
  | "noAddress"
  | "checkoutFailed"
  | "notFound"
  | "notRenewing"
  | "cancelFailed"
  | "rateLimited"
  | "notCancelled"
  | "ended"
  | "resumeFailed"
  | "itemsDeleted"
  | "checkoutCancelled"
  | "tooManyItems"
  | "noPortal"
  | "portalFailed"
  | "invoiceOrganisationOnly"
  | "invoiceAdminOnly"
  | "invoiceYearlyOnly"
  | "invoiceFailed"
  | "alreadyInvoiced"
  /** Decision 028: who may invoice. */
  | "invoiceVerifyEmail"
  | "invoiceBillingUnconfirmed"
  | "invoiceOverdue"
  | "invoiceCreditLimit"
  | "forbidden"
  /** Decision 041: the consumer's checkout without the request to start at once; withdrawal. */
  | "immediateStartRequired"
  | "withdrawalBusiness"
  | "withdrawalExpired"
  | "withdrawn"
  | "notWithdrawable"
  | "refundFailed"
  /** Decision 056: a one-time method not offered (disabled, or not in this currency), the monthly plan, renewals. */
  | "payWithUnavailable"
  | "payWithYearlyOnly"
  | "notRenewable"
  | "alreadyRenewed"
  /** A renewal's year starts within the consumer's 14 days: they must ask for it to start then. */
  | "renewalStartRequired"
  | "swishNumberInvalid";

export class OrderError extends ServiceError<OrderErrorCode> {}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isOrderId(v: unknown): v is string {
  return typeof v === "string" && UUID_RE.test(v);
}
