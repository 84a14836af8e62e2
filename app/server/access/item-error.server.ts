/**
 * The items' error and what an item is made from (decision 053): here, at the bottom, so the
 * stickers, which make and move items but sit below the items' feature, can name them.
 * items.service.server.ts re-exports both.
 */
import type { ProductInput } from "~/lib/forms/product-form";
import type { ContactVisibility } from "~/lib/domain/relay";
import { ServiceError } from "../service-error.server";

/**
 * What createItem/updateOwnedItem take: the form's parsed input. Callers that predate
 * contactVisibility (decision 013) may leave it out: a new item is public (the spec's
 * behaviour), an edited one keeps its choice.
 */
export type ItemInput = Omit<ProductInput, "contactVisibility"> & { contactVisibility?: ContactVisibility };

/**
 * notFound: no such item, or not the user's to manage (no difference shown).
 * assignForbidden: only an organisation's admins assign its items (decision 026).
 * assigneeNotMember: an item is assigned only to a member of its organisation.
 */
export type ItemErrorCode = "notFound" | "assignForbidden" | "assigneeNotMember" | "deleteAdminOnly";

export class ItemError extends ServiceError<ItemErrorCode> {}
