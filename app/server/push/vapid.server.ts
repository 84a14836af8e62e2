/**
 * The VAPID key pair that signs every push request (RFC 8292). From VAPID_PUBLIC_KEY /
 * VAPID_PRIVATE_KEY when set; otherwise generated once and kept in the database
 * (insert-if-absent: whichever instance writes first, every instance then reads the same
 * pair), so a fresh machine works and browsers' subscriptions stay valid across restarts.
 */
import webPush from "web-push";
import type { Deps } from "../service-deps.server";
import type { DB } from "../db/db.server";
import { findServerKey, insertServerKeyIfAbsent } from "./push.repository.server";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY_NAME = "vapid";

/** Per database handle: the pair never changes once stored. */
const loaded = new WeakMap<DB, Promise<VapidKeys>>();

function parseStored(value: string): VapidKeys {
  const v = JSON.parse(value) as Partial<VapidKeys>;
  if (typeof v.publicKey !== "string" || typeof v.privateKey !== "string") {
    throw new Error("server_keys.vapid is not a key pair");
  }
  return { publicKey: v.publicKey, privateKey: v.privateKey };
}

async function loadOrCreate(db: DB, now: number): Promise<VapidKeys> {
  const existing = await findServerKey(db, KEY_NAME);
  if (existing) return parseStored(existing);
  const fresh = webPush.generateVAPIDKeys();
  return parseStored(await insertServerKeyIfAbsent(db, KEY_NAME, JSON.stringify(fresh), now));
}

/** The key pair in use: configured, or the database's (made on first use). */
export function vapidKeys(deps: Pick<Deps, "db" | "config" | "clock">): Promise<VapidKeys> {
  if (deps.config.push.vapid) return Promise.resolve(deps.config.push.vapid);
  let keys = loaded.get(deps.db);
  if (!keys) {
    keys = loadOrCreate(deps.db, deps.clock());
    // A failed read (database down) is not remembered: the next call tries again.
    keys.catch(() => loaded.delete(deps.db));
    loaded.set(deps.db, keys);
  }
  return keys;
}

/** The public key browsers subscribe with (applicationServerKey). */
export async function vapidPublicKey(deps: Pick<Deps, "db" | "config" | "clock">): Promise<string> {
  return (await vapidKeys(deps)).publicKey;
}
