/**
 * The lost-mode form (decision 014): the dashboard card and the owner's item page post
 * it to /product/{id}/lost. Server only (keeps zod off the finder page).
 */
import { z } from "zod";

export const lostFormSchema = z.object({
  lost: z.enum(["0", "1"]).transform((v) => v === "1"),
  /** Where the owner goes back to: the dashboard or the item's page. */
  back: z.enum(["dashboard", "item"]).catch("item"),
});
