/** The organisations' signed webhooks (decision 061): local stand-in hosts. */
import type { z } from "zod";
import { hostPortList } from "./env.server";

export const webhooksEnv = {
  /**
   * host:port pairs that webhook endpoints may use although they resolve to a private or
   * loopback address (local receivers standing in for an organisation's); comma-separated.
   */
  WEBHOOK_ALLOW_HOSTS: hostPortList,
};

type WebhooksEnv = z.infer<z.ZodObject<typeof webhooksEnv>>;

export interface WebhooksConfig {
  /** WEBHOOK_ALLOW_HOSTS, lower case host:port. */
  allowHosts: string[];
}

export function webhooksConfig(e: WebhooksEnv): WebhooksConfig {
  return { allowHosts: e.WEBHOOK_ALLOW_HOSTS };
}
