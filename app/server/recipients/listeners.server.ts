/**
 * What the recipients' suppression list hears on the event bus (decision 053), subscribed
 * by runtime.server.ts: the trusted contacts announce a confirmation and leave the list
 * to the recipients.
 */
import type { ContactConfirmed } from "../domain-events";
import type { Deps } from "../service-deps.server";
import { unsuppressAddress } from "./recipients.service.server";

/**
 * An address or number that confirmed it wants a contact's messages comes off the
 * "never contact me again" list (decision 046): confirming is asking again.
 */
export async function unsuppressConfirmedContact(e: ContactConfirmed, deps: Pick<Deps, "db">): Promise<void> {
  await unsuppressAddress(deps, e.channel, e.to);
}
