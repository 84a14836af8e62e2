/**
 * What the finder-page cache hears on the event bus (decision 053), subscribed by
 * runtime.server.ts: the features that change what a finder sees of an item (saves, lost
 * mode, photos, payments, stickers, the finder form's flood limit, erasure) announce it and
 * never call the cache themselves.
 */
import type { ItemsChanged } from "../domain-events";
import type { Deps } from "../service-deps.server";

/**
 * This runtime forgets the items' stored pages at once, inside the announcement, so the
 * next request renders them afresh; another instance's pages follow within
 * VERSION_CHECK_MS (decisions 009, 021).
 */
export function forgetItemPages(e: ItemsChanged, deps: Pick<Deps, "pageCache">): Promise<void> {
  for (const id of e.itemIds) deps.pageCache.forget(id);
  return Promise.resolve();
}
