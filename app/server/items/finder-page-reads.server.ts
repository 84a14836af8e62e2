/**
 * Finder pages that miss the page cache at the same moment read their items together
 * (decision 045, point 6): each miss asks for its item, and the items asked for while
 * earlier reads are still running go to the database as one statement
 * (finder-page.repository.server.ts, up to 16 items each). When scans come one at a
 * time each is read alone at once; when they come faster than the database answers, a
 * read is one round trip and one executor start for many pages instead of one per page,
 * and a few connections do the work of many. DataLoader batches the keys and hands each
 * caller its own result or error; its cache is off, every read is fresh.
 */
import DataLoader from "dataloader";
import type { DB } from "../db/db.server";
import { MAX_FINDER_PAGE_BATCH, readFinderPages, type FinderPageRead } from "./finder-page.repository.server";

/** The batched reads running at once; the items asked for meanwhile wait for one to end. */
export const FINDER_PAGE_READS_AT_ONCE = 2;

/** An item's finder-page read, null when there is no such item. */
export type FinderPageReader = (itemId: string) => Promise<FinderPageRead | null>;

/**
 * A reader of finder pages from `db`, each item's flood counter under `floodKeyPrefix`
 * and its id in lower case, with at most `atOnce` statements running.
 */
export function batchedFinderPageReads(
  db: DB,
  floodKeyPrefix: string,
  atOnce = FINDER_PAGE_READS_AT_ONCE,
): FinderPageReader {
  let running = 0;
  /** Batches waiting for a running read to end, oldest first. */
  const held: (() => void)[] = [];
  const loader = new DataLoader<string, FinderPageRead | null>(
    async (itemIds) => {
      try {
        const reads = await readFinderPages(db, itemIds, floodKeyPrefix);
        return itemIds.map((id) => reads.get(id) ?? null);
      } finally {
        // The slot goes to the oldest waiting batch, with every item asked for meanwhile.
        const next = held.shift();
        if (next) next();
        else running--;
      }
    },
    {
      cache: false,
      maxBatchSize: MAX_FINDER_PAGE_BATCH,
      batchScheduleFn: (dispatch) => {
        if (running < atOnce) {
          running++;
          // After this turn of the event loop: the requests that arrived with this one join it.
          setImmediate(dispatch);
        } else held.push(dispatch);
      },
    },
  );
  return (itemId) => loader.load(itemId);
}
