/**
 * What the orders hear on the event bus (decision 053), subscribed by runtime.server.ts:
 * the organisations announce a membership's end and never import the renewals.
 */
import type { MembershipEnded } from "../domain-events";
import type { Deps } from "../service-deps.server";
import { stopRenewalsInOrganisation } from "./renewals.service.server";

/** An ex-member's subscriptions in the organisation's scope stop renewing (decision 028). */
export async function stopRenewalsOfExMember(
  e: MembershipEnded,
  deps: Pick<Deps, "db" | "config" | "clock" | "payments">,
): Promise<void> {
  await stopRenewalsInOrganisation(deps, e.userId, e.organisationId);
}
