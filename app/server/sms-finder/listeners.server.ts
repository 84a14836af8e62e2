/**
 * What the SMS finders' feature hears on the event bus (decision 053), subscribed by
 * runtime.server.ts: the relay announces an answer from the owner's side and never imports
 * this feature.
 */
import type { OwnerReplied } from "../domain-events";
import type { Deps } from "../service-deps.server";
import { smsFinderReply } from "./finder-sms.server";

/** The owner's side answered: a finder who wrote by SMS gets the answer from SMS_NUMBER (decision 055). */
export async function smsFinderOfReply(e: OwnerReplied, deps: Pick<Deps, "db" | "config">): Promise<void> {
  await smsFinderReply(deps, { finderPhone: e.finderPhone }, e.item, e.text, e.now);
}
