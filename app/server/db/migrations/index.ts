import type { Migration } from "kysely/migration";
import * as m0001 from "./0001-initial";
import * as m0002 from "./0002-mail-outbox";
import * as m0004 from "./0004-order-drafts";
import * as m0005 from "./0005-contact-admin";
import * as m0006 from "./0006-orders";

/**
 * Every migration, in order. Listed statically (not read from disk) so the production
 * bundle carries them. Append new files; never edit or reorder landed ones.
 */
export const migrations: Record<string, Migration> = {
  "0001-initial": m0001,
  "0002-mail-outbox": m0002,
  "0004-order-drafts": m0004,
  "0005-contact-admin": m0005,
  "0006-orders": m0006,
};
