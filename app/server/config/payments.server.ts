/** The one-time payment methods of the yearly plan (decision 056): STRIPE_ONE_TIME_METHODS. */
import { z } from "zod";
import { ONE_TIME_METHODS, type OneTimeMethod } from "~/lib/domain/one-time-payment";
import { emptyToUndefined } from "./env.server";

export const paymentsEnv = {
  /**
   * Stripe `payment_method_types` offered for a year paid at once (Checkout in payment
   * mode), comma-separated, in the order shown: `swish`, `klarna`; `none` offers the card
   * subscription only. The test provider simulates the same choice.
   */
  STRIPE_ONE_TIME_METHODS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("swish")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(
            z.enum([...ONE_TIME_METHODS, "none"], {
              message: `each entry must be one of ${ONE_TIME_METHODS.join(", ")} or none`,
            }),
          )
          .refine((list) => !list.includes("none") || list.length === 1, { message: "none stands alone" }),
      ),
  ),
};

/** The enabled one-time methods, each once, in the operator's order. */
export function oneTimeMethodsOf(list: ReadonlyArray<OneTimeMethod | "none">): OneTimeMethod[] {
  return [...new Set(list.filter((m): m is OneTimeMethod => m !== "none"))];
}
