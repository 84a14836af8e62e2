/** Organisation errors as HTTP (decision 011): one table for /organisations/* and /invite/{token}. */
import { errorTable } from "../http/errors.server";
import { recipientsErrors } from "../recipients/recipients.http.server";
import { OrganisationError, type OrganisationErrorCode } from "./organisations.service.server";

export const organisationErrors = errorTable<OrganisationErrorCode>(OrganisationError, {
  notFound: { status: 404, key: "organisations.errors.notFound" },
  forbidden: { status: 403, key: "organisations.errors.forbidden" },
  lastAdmin: { status: 409, key: "organisations.errors.lastAdmin" },
  alreadyMember: { status: 409, key: "organisations.errors.alreadyMember" },
  inviteNotFound: { status: 404, key: "organisations.errors.inviteNotFound" },
  inviteExpired: { status: 410, key: "organisations.errors.inviteExpired" },
  inviteUsed: { status: 410, key: "organisations.errors.inviteUsed" },
  emailNotVerified: { status: 403, key: "organisations.errors.emailNotVerified" },
  wrongEmail: { status: 403, key: "organisations.errors.wrongEmail" },
  inviterNotVerified: { status: 403, key: "organisations.errors.inviterNotVerified" },
  alreadyInvited: { status: 409, key: "organisations.errors.alreadyInvited" },
  dpaRequired: { status: 409, key: "organisations.errors.dpaRequired" },
  dpaOutdated: { status: 409, key: "organisations.errors.dpaOutdated" },
  billingLinkInvalid: { status: 410, key: "organisations.errors.billingLinkInvalid" },
  billingSenderNotVerified: { status: 403, key: "organisations.errors.billingSenderNotVerified" },
  orgNumberTaken: { status: 409, key: "organisations.errors.orgNumberTaken", on: { field: "orgNumber" } },
  rateLimited: {
    status: 429,
    key: "organisations.errors.rateLimited",
    headers: (p) => ({ "Retry-After": String(Number(p.count ?? 1) * 60) }),
  },
});

/** The organisation page's forms: invites and billing-email links are consent requests too (decision 046). */
export const organisationFormErrors = [organisationErrors, recipientsErrors] as const;
