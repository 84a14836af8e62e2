import type { Migration } from "kysely/migration";
import * as m0001 from "./0001-initial";
import * as m0002 from "./0002-mail-outbox";
import * as m0004 from "./0004-order-drafts";
import * as m0005 from "./0005-contact-admin";
import * as m0006 from "./0006-orders";
import * as m0007 from "./0007-admin-grant-user";
import * as m0008 from "./0008-fulfilment";
import * as m0009 from "./0009-account-privacy";
import * as m0010 from "./0010-relay";
import * as m0011 from "./0011-scans";
import * as m0012 from "./0012-billing";
import * as m0013 from "./0013-hittelon";
import * as m0014 from "./0014-organisations";
import * as m0016 from "./0016-invoices";
import * as m0017 from "./0017-organisation-conversations";
import * as m0020 from "./0020-relay-digests";
import * as m0021 from "./0021-contact-message-user";
import * as m0022 from "./0022-accountable-invoicing";
import * as m0026 from "./0026-alerts";
import * as m0030 from "./0030-push";
import * as m0031 from "./0031-item-photos";
import * as m0032 from "./0032-admin-lookups";
import * as m0033 from "./0033-dpa-acceptances";
import * as m0035 from "./0035-push-in-outbox";
import * as m0036 from "./0036-trusted-contacts";
import * as m0037 from "./0037-unread-index";
import * as m0038 from "./0038-withdrawal";
import * as m0039 from "./0039-stickers";
import * as m0041 from "./0041-dashboard-counts-index";
import * as m0042 from "./0042-trusted-contact-codes";
import * as m0043 from "./0043-desk-contacts";
import * as m0044 from "./0044-prepaid-reminders";
import * as m0045 from "./0045-order-starts-at";
import * as m0046 from "./0046-folded-name";
import * as m0047 from "./0047-scans-without-foreign-key";
import * as m0048 from "./0048-contact-channel-consent";
import * as m0049 from "./0049-suppressions";
import * as m0050 from "./0050-delivery-lanes";
import * as m0053 from "./0053-backups";
import * as m0055 from "./0055-confirmation-pending-shipment-notes";
import * as m0056 from "./0056-credit-notes";
import * as m0063 from "./0063-finder-mail-confirmed";
import * as m0065 from "./0065-sms-finders";
import * as m0066 from "./0066-api-keys";
import * as m0067 from "./0067-webhooks";
import * as m0068 from "./0068-a-year-at-a-time";
import * as m0069 from "./0069-room-for-last-scanned";

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
  "0007-admin-grant-user": m0007,
  "0008-fulfilment": m0008,
  "0009-account-privacy": m0009,
  "0010-relay": m0010,
  "0011-scans": m0011,
  "0012-billing": m0012,
  "0013-hittelon": m0013,
  "0014-organisations": m0014,
  "0016-invoices": m0016,
  "0017-organisation-conversations": m0017,
  "0020-relay-digests": m0020,
  "0021-contact-message-user": m0021,
  "0022-accountable-invoicing": m0022,
  "0026-alerts": m0026,
  "0030-push": m0030,
  "0031-item-photos": m0031,
  "0032-admin-lookups": m0032,
  "0033-dpa-acceptances": m0033,
  "0035-push-in-outbox": m0035,
  "0036-trusted-contacts": m0036,
  "0037-unread-index": m0037,
  "0038-withdrawal": m0038,
  "0039-stickers": m0039,
  "0041-dashboard-counts-index": m0041,
  "0042-trusted-contact-codes": m0042,
  "0043-desk-contacts": m0043,
  "0044-prepaid-reminders": m0044,
  "0045-order-starts-at": m0045,
  "0046-folded-name": m0046,
  "0047-scans-without-foreign-key": m0047,
  "0048-contact-channel-consent": m0048,
  "0049-suppressions": m0049,
  "0050-delivery-lanes": m0050,
  "0053-backups": m0053,
  "0055-confirmation-pending-shipment-notes": m0055,
  "0056-credit-notes": m0056,
  "0063-finder-mail-confirmed": m0063,
  "0065-sms-finders": m0065,
  "0066-api-keys": m0066,
  "0067-webhooks": m0067,
  "0068-a-year-at-a-time": m0068,
  "0069-room-for-last-scanned": m0069,
};

/**
 * Tables to vacuum on PostgreSQL once a migration is applied (outside its transaction,
 * where VACUUM must run). A migration that rewrites a table leaves its visibility map
 * empty, and until a vacuum no index-only scan is chosen on it; autovacuum would not
 * come soon, as a rewrite leaves no dead rows (decision 042).
 */
export const vacuumAfter: Record<string, string[]> = {
  "0046-folded-name": ["products"],
};
