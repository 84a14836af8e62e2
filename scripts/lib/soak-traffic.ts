// The traffic of `npm run bench:soak` (decision 048): what a visitor does (the finder page,
// a finder's message, a sign-in, the dashboard, a new item ordered and paid) and the two
// ways of sending it.
//
// - Open loop (the default): requests start at a steady rate whatever the answers do, as
//   visitors arrive. Each is timed from the moment it was meant to start, not from when it
//   was sent, so a stall counts for every request it held back (no coordinated omission: a
//   closed loop sends nothing while it waits and so hides the wait from its percentiles).
// - Closed loop (`--closed`): a few clients, each sending its next request when the last
//   one answered, as fast as the machine goes. It measures a saturated machine, not the app.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { newItemId } from "../../app/lib/domain/ids";
import { newStickerCode } from "../../app/lib/domain/sticker-code";
import { BALANCER_HEADER, PHONE_UA, postForm } from "./fleet";

export interface Sample {
  /** When the request was meant to start (open loop) or was sent (closed loop), ms since epoch. */
  at: number;
  kind: string;
  status: number;
  ms: number;
  /** Who answered: an instance, the balancer itself, or nobody within the timeout (status 0). */
  from: "instance" | "balancer" | "none";
}

export interface Owner {
  email: string;
  password: string;
  cookie: string;
}

export interface TrafficContext {
  base: string;
  owners: Owner[];
  /** The finder pages asked for: one of these at random each time. */
  items: string[];
  /** Reads a new item's id, as the dashboard's form would send it (a pool: it outlives the restart). */
  lookup: pg.Pool;
  samples: Sample[];
  acked: { messages: string[]; items: string[]; orders: string[] };
}

/** Every request gives up after this long and counts as failed (status 0). */
const REQUEST_TIMEOUT_MS = 30_000;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
let seq = 0;

/**
 * Copies of one paid item under new ids and codes, so the finder pages spread over more
 * items than the finder-page cache holds (5,000): after the first minutes the cache is full
 * and evicting, and the memory of the second half says whether it stays flat.
 */
export async function seedItems(db: pg.Pool, templateId: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'products' and column_name not in ('id', 'code') and is_generated = 'NEVER'`,
  );
  const columns = rows.map((r) => `"${r.column_name}"`).join(", ");
  const ids: string[] = [];
  for (let done = 0; done < count; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - done) }, () => newItemId());
    const codes = batch.map(() => newStickerCode());
    await db.query(
      `insert into products (id, code, ${columns})
       select n.id, n.code, ${columns} from unnest($1::text[], $2::text[]) as n(id, code)
         cross join (select ${columns} from products where id = $3) as p`,
      [batch, codes, templateId],
    );
    ids.push(...batch);
  }
  return ids;
}

/** Records one request of `kind` timed from `at` (its intended start); answers its status. */
async function timed(
  ctx: TrafficContext,
  kind: string,
  at: number,
  run: () => Promise<{ status: number; fromBalancer: boolean }>,
) {
  const { status, fromBalancer } = await run().catch(() => ({ status: 0, fromBalancer: false }));
  const from = status === 0 ? "none" : fromBalancer ? "balancer" : "instance";
  ctx.samples.push({ at, kind, status, ms: Date.now() - at, from });
  return status;
}
const get = (url: string, headers: Record<string, string>) =>
  fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(async (r) => {
    await r.arrayBuffer();
    return { status: r.status, fromBalancer: r.headers.has(BALANCER_HEADER) };
  });
const post = (ctx: TrafficContext, path: string, fields: Record<string, string>, cookie?: string) =>
  Promise.race([
    postForm(ctx.base, path, fields, cookie),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), REQUEST_TIMEOUT_MS).unref()),
  ]);

export type Action = (ctx: TrafficContext, at: number) => Promise<unknown>;

export const actions = {
  finder: (ctx, at) =>
    timed(ctx, "finder", at, () => get(`${ctx.base}/product/${pick(ctx.items)}`, { "user-agent": PHONE_UA })),
  message: async (ctx, at) => {
    const text = `soak message ${++seq} ${randomBytes(2).toString("hex")}`;
    let token = "";
    await timed(ctx, "message", at, async () => {
      const r = await post(ctx, `/product/${pick(ctx.items)}`, { message: text, contact: "" });
      if (r.status === 302 && r.location.startsWith("/m/")) token = r.location.slice(3, r.location.indexOf("?"));
      return r;
    });
    if (token) ctx.acked.messages.push(token);
  },
  signIn: (ctx, at) => {
    const owner = pick(ctx.owners);
    return timed(ctx, "sign-in", at, () => post(ctx, "/login", { email: owner.email, password: owner.password }));
  },
  dashboard: (ctx, at) =>
    timed(ctx, "dashboard", at, () => get(`${ctx.base}/dashboard`, { cookie: pick(ctx.owners).cookie })),
  /** A new item, its order and the test payment: three requests, each after the last answered. */
  purchase: async (ctx, at) => {
    const owner = pick(ctx.owners);
    const name = `soak-item-${++seq}`;
    const made = await timed(ctx, "item", at, () =>
      post(
        ctx,
        "/product/register",
        { name, findFee: "10", prodType: "other", contactInfo: "soak", payment: "year", intent: "payLater" },
        owner.cookie,
      ),
    );
    if (made !== 302) return;
    ctx.acked.items.push(name);
    const found = await ctx.lookup
      .query<{ id: string }>("select id from products where name = $1", [name])
      .catch(() => null);
    const itemId = found?.rows[0]?.id;
    if (!itemId) return;
    let checkout = "";
    await timed(ctx, "order", Date.now(), async () => {
      const r = await post(ctx, "/order", { immediateStart: "yes", items: itemId, payment: "year" }, owner.cookie);
      checkout = r.location;
      return r;
    });
    if (!checkout.startsWith("/order/checkout/")) return;
    const paid = await timed(ctx, "payment", Date.now(), () => post(ctx, checkout, {}, owner.cookie));
    if (paid === 302) ctx.acked.orders.push(checkout.slice("/order/checkout/".length));
  },
} satisfies Record<string, Action>;

/**
 * The open loop's mix, per request started: mostly finder pages (a sticker scanned), as in
 * the closed loop's counts of the 20-minute run, with every write kept frequent enough to
 * count (at 40/s: about 1 message, 1 purchase, 0.8 sign-ins and 0.8 dashboards a second).
 */
export const MIX: Array<[keyof typeof actions, number]> = [
  ["finder", 0.9],
  ["message", 0.03],
  ["purchase", 0.03],
  ["signIn", 0.02],
  ["dashboard", 0.02],
];
const chooseAction = (): Action => {
  let r = Math.random();
  for (const [name, share] of MIX) if ((r -= share) < 0) return actions[name];
  return actions.finder;
};

/**
 * Starts `rate` requests a second until `running()` turns false, each at its own intended
 * time (evenly spaced), whatever the earlier ones are doing. Answers when all have finished
 * and how many were started late by more than 50 ms (the generator itself fell behind).
 */
export async function openLoop(ctx: TrafficContext, rate: number, running: () => boolean) {
  const interval = 1000 / rate;
  const inFlight = new Set<Promise<unknown>>();
  let next = Date.now();
  let late = 0;
  let maxInFlight = 0;
  while (running()) {
    const now = Date.now();
    while (next <= now) {
      if (now - next > 50) late++;
      const p = chooseAction()(ctx, next).catch(() => undefined);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      next += interval;
    }
    maxInFlight = Math.max(maxInFlight, inFlight.size);
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(20, next - Date.now()))));
  }
  await Promise.all(inFlight);
  return { startedLate: late, maxInFlight };
}

/** The closed loop: four finder clients and one client for each other kind, as fast as they go. */
export async function closedLoop(ctx: TrafficContext, running: () => boolean) {
  const clients: Array<[Action, number]> = [
    [actions.finder, 0],
    [actions.finder, 0],
    [actions.finder, 0],
    [actions.finder, 0],
    [actions.message, 200],
    [actions.signIn, 200],
    [actions.dashboard, 100],
    [actions.purchase, 300],
  ];
  await Promise.all(
    clients.map(async ([action, pause]) => {
      while (running()) {
        await action(ctx, Date.now());
        if (pause) await new Promise((r) => setTimeout(r, pause));
      }
    }),
  );
  return { startedLate: 0, maxInFlight: clients.length };
}
