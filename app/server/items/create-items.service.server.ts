/**
 * Several items registered from one form (the Triple's three, decision 038): each block is
 * checked with the product form's one schema, and the items are saved in one transaction,
 * all of them or none. Nothing is saved while any block has an error.
 */
import type { Lang } from "~/i18n/config";
import { parseProductValues, type ProductFormErrors, type ProductFormValues } from "~/lib/forms/product-form";
import type { Deps } from "../service-deps.server";
import { createItem } from "./items.service.server";

export type CreateItemsResult =
  | { ok: true; ids: string[] }
  /** One entry per block, in order; {} for a block without errors. */
  | { ok: false; errors: ProductFormErrors[] };

export async function createItems(
  deps: Pick<Deps, "db" | "clock">,
  owner: string,
  inputs: readonly ProductFormValues[],
  lang: Lang,
  /** Registered in an organisation's scope (decision 022); null: personal items. */
  organisationId: string | null = null,
): Promise<CreateItemsResult> {
  const parsed = inputs.map((values) => parseProductValues(values, "payNow"));
  const errors = parsed.map((p) => (p.ok ? {} : p.errors));
  if (parsed.length === 0 || errors.some((e) => Object.keys(e).length > 0)) return { ok: false, errors };
  const ids = await deps.db.transaction().execute(async (trx) => {
    const out: string[] = [];
    // One after another: one connection holds the transaction.
    for (const p of parsed)
      if (p.ok) out.push(await createItem({ db: trx, clock: deps.clock }, owner, p.data, lang, organisationId));
    return out;
  });
  return { ok: true, ids };
}
