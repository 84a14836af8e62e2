/**
 * Data for the backup tests (decision 048): an owner with an item, its photo, a paid order
 * with its receipt, a finder's conversation and a scan, written through the services; and
 * every table of a database read back in one comparable form, whatever the dialect.
 */
import "../../app/i18n/resources.server";
import { sql, type Kysely } from "kysely";
import { readTables } from "../../app/server/backup/introspect.server";
import { isoInstant } from "../../app/server/backup/table-codec.server";
import type { Dialect } from "../../app/server/db/db.server";
import { createItem } from "../../app/server/items/items.service.server";
import { keepOrderAddress } from "../../app/server/order-draft/order-draft.service.server";
import { completeTestPayment, createOrder } from "../../app/server/orders/checkout.service.server";
import { attachPhotos, listManagedPhotos, preparePhotos } from "../../app/server/photos/photos.service.server";
import { sendFinderMessage } from "../../app/server/relay/relay.service.server";
import type { Runtime } from "../../app/server/runtime.server";
import { depsOf } from "./deps";
import { phonePhotoWithGps } from "./images";
import { ADDRESS } from "./service-fixtures";
import { createUser, type TestUser } from "./users";

export interface Seeded {
  owner: TestUser;
  itemId: string;
  orderId: string;
  /** The URL path of the photo's medium variant. */
  photoPath: string;
  finderToken: string;
}

/** Text that a careless encoder would break: quotes, newlines, emoji, Swedish letters. */
export const AWKWARD_TEXT = 'Hittade den vid "Ågatan" 3,\nbakom bänken 🚲 — ring ‘Örjan’ \\ tack';

export async function seedEverything(rt: Runtime, name = "Red bike"): Promise<Seeded> {
  const deps = depsOf(rt);
  const owner = await createUser(rt, { name: "Berit Backup" });
  await keepOrderAddress(deps, owner.id, { ...ADDRESS, email: owner.email }, false);
  const itemId = await createItem(
    deps,
    owner.id,
    { name, findFee: 200, prodType: "other", contactInfo: "070-123 45 67", payment: "year", intent: "payLater" },
    "en",
  );
  const [prepared] = await preparePhotos(deps, owner.id, [await phonePhotoWithGps()], { itemId });
  await attachPhotos(deps, owner.id, itemId, [prepared!]);
  const [photo] = await listManagedPhotos(deps, owner.id, itemId);
  const order = await createOrder(deps, { userId: owner.id, itemIds: [itemId], period: "year", lang: "en" });
  await completeTestPayment(deps, { userId: owner.id, orderId: order.id });
  const { token } = await sendFinderMessage(
    deps,
    itemId,
    {
      message: AWKWARD_TEXT,
      contact: "",
      latitude: 59.8586,
      longitude: 17.6389,
      captchaToken: "",
      js: false,
      trap: false,
    },
    { ip: "192.0.2.10", lang: "sv", viewerId: null },
  );
  await rt.database.db
    .insertInto("item_scans")
    .values({ productId: itemId, scannedAt: Date.now(), lang: "sv", device: "phone" })
    .execute();
  return {
    owner,
    itemId,
    orderId: order.id,
    photoPath: new URL(photo!.medium.url, "http://x").pathname,
    finderToken: token,
  };
}

/**
 * Every table's rows, sorted, with values in one form for both databases: booleans as 0/1,
 * bytes as base64, instants as ISO strings with milliseconds.
 */
export async function readEverything(db: Kysely<any>, dialect: Dialect): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await readTables(db, dialect)) {
    const cols = [...t.columns].sort((a, b) => a.name.localeCompare(b.name));
    const rows = await sql<
      Record<string, unknown>
    >`select ${sql.join(cols.map((c) => sql.id(c.name)))} from ${sql.table(t.name)}`.execute(db);
    out[t.name] = rows.rows
      .map((r) =>
        JSON.stringify(
          cols.map(({ name, kind }) => {
            const v = r[name];
            if (v === null || v === undefined) return null;
            if (Buffer.isBuffer(v)) return v.toString("base64");
            if (typeof v === "boolean") return v ? 1 : 0;
            if (kind === "timestamp") return isoInstant(v instanceof Date ? v.getTime() : (v as string | number));
            return v;
          }),
        ),
      )
      .sort();
  }
  return out;
}
