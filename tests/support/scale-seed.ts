/**
 * Seeds a PostgreSQL database with many owners, organisations, items, scans, conversations
 * and orders in a few set-based statements (generate_series), not through the repositories
 * one row at a time: a million items and ten million scans in minutes (decision 042). Used
 * by `npm run bench:scale` and by the query-plan test, which seeds a smaller database the
 * same way. Rows look like the app's own: ids and sticker codes in the app's formats, paid
 * items, a lost one now and then, scans spread over two years (so housekeeping has a year
 * to delete), conversations with two messages, orders with their items.
 */
import { sql } from "kysely";
import type { DB } from "../../app/server/db/db.server";

export interface ScaleSize {
  owners: number;
  organisations: number;
  /** Items in all, the big organisation's included. */
  items: number;
  /** Items of the first organisation ("the big one"). */
  bigOrgItems: number;
  /** Items of every other organisation. */
  orgItems: number;
  scans: number;
  conversations: number;
  orders: number;
}

export const FULL_SCALE: ScaleSize = {
  owners: 200_000,
  organisations: 1_000,
  items: 1_000_000,
  bigOrgItems: 50_000,
  orgItems: 50,
  scans: 10_000_000,
  conversations: 100_000,
  orders: 200_000,
};

const DAY = 86_400_000;

/** The seeded item number n (1-based) as the app writes ids: 10 letters and digits. */
export const seededItemId = (n: number) => `S${String(n).padStart(9, "0")}`;
/** The seeded owner number n (1-based); owner 1 is the big organisation's admin. */
export const seededOwnerId = (n: number) => `scale-owner-${n}`;
export const seededOrganisationId = (n: number) => `scale-org-${n}`;

/** The item number as an id, in SQL (the same as seededItemId). */
const itemIdSql = (n: string) => `'S' || lpad((${n})::text, 9, '0')`;

export interface SeedTimings {
  [step: string]: number;
}

/**
 * Seeds `size` into an empty, migrated PostgreSQL database at time `now`. Items 1 …
 * bigOrgItems belong to organisation 1 (registered by owner 1, its admin); the next
 * (organisations − 1) × orgItems to the other organisations; the rest are personal items
 * spread over the owners. Returns how long each step took (ms).
 */
export async function seedScale(
  db: DB,
  size: ScaleSize,
  now: number,
  { analyze = true }: { analyze?: boolean } = {},
): Promise<SeedTimings> {
  const timings: SeedTimings = {};
  const step = async (name: string, query: string) => {
    const t0 = performance.now();
    await sql.raw(query).execute(db);
    timings[name] = Math.round(performance.now() - t0);
  };
  const orgItemsEnd = size.bigOrgItems + (size.organisations - 1) * size.orgItems;
  if (orgItemsEnd > size.items) throw new Error("seedScale: more organisation items than items");

  await step(
    "owners",
    `insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "language")
     select 'scale-owner-' || g, 'Owner ' || g, 'owner' || g || '@scale.example', true, now(), now(),
            case when g % 3 = 0 then 'en' else 'sv' end
     from generate_series(1, ${size.owners}) g`,
  );
  await step(
    "organisations",
    `insert into "organisations" ("id", "name", "orgNumber", "billingEmail", "invoiceStreet", "invoicePostcode",
       "invoiceCity", "invoiceCountry", "deskContact", "createdAt", "updatedAt")
     select 'scale-org-' || g, 'Organisation ' || g, lpad(g::text, 6, '0') || '-' || lpad(g::text, 4, '0'),
            'billing' || g || '@scale.example', 'Storgatan ' || g, '11122', 'Stockholm', 'SE',
            'Reception, floor ' || (g % 9 + 1), ${now}, ${now}
     from generate_series(1, ${size.organisations}) g`,
  );
  // Organisation g's admin is owner g.
  await step(
    "members",
    `insert into "organisation_members" ("organisationId", "userId", "role", "createdAt")
     select 'scale-org-' || g, 'scale-owner-' || g, 'admin', ${now}
     from generate_series(1, ${size.organisations}) g`,
  );
  // Item n: organisation 1 for n ≤ bigOrgItems, then orgItems per other organisation,
  // then personal items of owner (n mod owners) + 1.
  const orgOf = `case when g <= ${size.bigOrgItems} then 1
                      when g <= ${orgItemsEnd} then 2 + (g - ${size.bigOrgItems} - 1) / ${size.orgItems}
                      else null end`;
  await step(
    "items",
    `insert into "products" ("id", "code", "owner", "name", "findFee", "currency", "prodType", "contactInfo",
       "contactVisibility", "payment", "payed", "paidUntil", "createdAt", "updatedAt", "active", "scanAlerts",
       "lostAt", "organisationId")
     select ${itemIdSql("g")},
            'Z' || translate(lpad(g::text, 8, '0'), '0123456789', '23456789AB'),
            case when o is null then 'scale-owner-' || (g % ${size.owners} + 1) else 'scale-owner-' || o end,
            (array['Laptop', 'Mobile', 'Keys', 'Wallet', 'Bag', 'Bike'])[g % 6 + 1] || ' number ' || g,
            100 + g % 400, case when g % 2 = 0 then 'SEK' else 'EUR' end,
            (array['mobile', 'laptop', 'keys', 'wallet', 'bag', 'other'])[g % 6 + 1],
            'Call +46 70 123 ' || lpad((g % 10000)::text, 4, '0') || ' or write to owner' || g || '@scale.example',
            'public', 'year', case when g % 10 = 3 then 0 else 1 end,
            case when g % 10 = 3 then null else ${now + 365 * DAY} end,
            ${now} - g::bigint * 1000, ${now} - g::bigint * 1000, 1, 0,
            case when g % 500 = 7 then ${now - DAY} else null end,
            case when o is null then null else 'scale-org-' || o end
     from (select g, ${orgOf} as o from generate_series(1, ${size.items}) g) s`,
  );
  // Scans over two years (half of them older than the one year they are kept), each item
  // scanned about scans / items times. Inserted oldest first, as a live log is written: the
  // table's pages then follow time, as they do in production, and housekeeping deletes
  // whole pages rather than a few rows from every page of the table.
  await step(
    "scans",
    `insert into "item_scans" ("productId", "scannedAt", "lang", "device")
     select ${itemIdSql(`g % ${size.items} + 1`)}, ${now} - (g::bigint * 7919) % 730 * ${DAY} - g % 86400 * 1000,
            case when g % 3 = 0 then 'en' else 'sv' end,
            (array['mobile', 'desktop', 'tablet'])[g % 3 + 1]
     from generate_series(1, ${size.scans}) g
     order by 2`,
  );
  // Conversations: every item number divisible by items / conversations has one, two messages.
  const every = Math.max(1, Math.floor(size.items / Math.max(1, size.conversations)));
  await step(
    "conversations",
    `insert into "conversations" ("id", "itemId", "ownerId", "finderToken", "finderContact", "finderLang",
       "createdAt", "lastMessageAt")
     select 'scale-conv-' || g, p."id", p."owner", 'scale-token-' || g, 'finder' || g || '@scale.example', 'sv',
            ${now} - g::bigint * 60000, ${now} - g::bigint * 60000 + 3600000
     from generate_series(1, ${size.conversations}) g
     join "products" p on p."id" = ${itemIdSql(`least(${size.items}, g * ${every})`)}`,
  );
  await step(
    "messages",
    `insert into "conversation_messages" ("id", "conversationId", "author", "text", "createdAt", "readAt")
     select 'scale-msg-' || g || '-' || k, 'scale-conv-' || g, case when k = 1 then 'finder' else 'owner' end,
            case when k = 1 then 'I found it at the station' else 'Thank you, I will come' end,
            ${now} - g::bigint * 60000 + (k - 1) * 3600000,
            -- The newest conversation in a hundred is not opened yet.
            case when g % 100 = 1 then null else ${now} - g::bigint * 60000 + (k - 1) * 3600000 + 60000 end
     from generate_series(1, ${size.conversations}) g, generate_series(1, 2) k`,
  );
  // Orders: one per personal item from the end of the range, paid by its owner, a year.
  await step(
    "orders",
    `insert into "orders" ("id", "userId", "provider", "status", "period", "lang", "currency", "count",
       "unitAmount", "packageAmount", "discountAmount", "totalAmount", "adress", "paidAt", "paidUntil",
       "renewing", "createdAt", "updatedAt")
     select 'scale-order-' || g, p."owner", 'test', 'active', 'year', 'sv', p."currency", 1, 14900, 14900, 0, 14900,
            '{}', ${now} - g::bigint * 1000, ${now + 365 * DAY}, 1, ${now} - g::bigint * 1000, ${now}
     from generate_series(1, ${size.orders}) g
     join "products" p on p."id" = ${itemIdSql(`${size.items} - g + 1`)}`,
  );
  await step(
    "order items",
    `insert into "order_items" ("orderId", "productId")
     select 'scale-order-' || g, ${itemIdSql(`${size.items} - g + 1`)} from generate_series(1, ${size.orders}) g`,
  );
  // As autovacuum would have done long before a live database grew this large: statistics
  // for the planner, and the visibility map that lets index-only scans skip the table.
  // (`analyze: false` leaves the tables as a server with autovacuum off would: never analyzed.)
  if (analyze) await step("analyze", "vacuum analyze");
  return timings;
}
