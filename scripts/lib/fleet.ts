// A fleet of app instances on one PostgreSQL database behind a small load balancer, for
// `npm run drill:rolling` and `npm run bench:soak` (decision 048). The balancer does what a
// real one does for Hittad: it sends requests round-robin to the instances whose /readyz
// answered 200 at the last look (every 250 ms), and an instance that refuses the
// connection gets its request tried once on another (nothing was sent, so nothing doubles).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import pg from "pg";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh database on the server of `adminUrl` (DATABASE_URL), dropped by `drop()`. */
export async function createDatabase(adminUrl: string, label: string) {
  if (!/^postgres(ql)?:\/\//.test(adminUrl)) {
    throw new Error("DATABASE_URL must be a postgres:// URL of a server where a database may be created");
  }
  const name = `hittad_${label}_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  log: string;
}

/** Starts `server.js` of the checkout in `dir` and waits until it listens. */
export async function startInstance(
  name: string,
  dir: string,
  env: Record<string, string>,
  logDir: string,
): Promise<Instance> {
  const port = await freePort();
  const log = path.join(logDir, `${name}.log`);
  const out = fs.openSync(log, "a");
  const child = spawn(process.execPath, ["server.js"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", out, out],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${fs.readFileSync(log, "utf8").slice(-3000)}`);
    if (Date.now() > deadline) {
      // Not left running behind the caller's back (nobody holds it to stop it).
      child.kill("SIGKILL");
      throw new Error(`${name} did not start:\n${fs.readFileSync(log, "utf8").slice(-3000)}`);
    }
    const up = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, port, url, child, exited, log };
}

/** SIGTERM, then waits for the exit (the instance drains first: SHUTDOWN_DELAY_MS). */
export async function stopInstance(i: Instance): Promise<number | null> {
  if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill("SIGTERM");
  return i.exited;
}

export interface Balancer {
  url: string;
  add(i: Instance): void;
  remove(i: Instance): void;
  /** The instances the balancer sends to now. */
  healthy(): string[];
  close(): Promise<void>;
}

/** Set on the balancer's own answers (no instance ready, an instance unreachable), not on an instance's. */
export const BALANCER_HEADER = "x-fleet-balancer";

export async function startBalancer(): Promise<Balancer> {
  const members: Instance[] = [];
  const up = new Set<Instance>();
  let next = 0;
  // Like a real balancer's health check (an "unhealthy threshold" of 2): one slow probe on a
  // saturated machine does not take an instance out; a refused connection still does at once
  // (forward's error path), and an answer other than 200 on the second probe in a row.
  const failedProbes = new Map<Instance, number>();
  const look = async () => {
    await Promise.all(
      members.map(async (i) => {
        const ok = await fetch(`${i.url}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
          async (r) => (await r.text(), r.ok),
          () => false,
        );
        const failed = ok ? 0 : (failedProbes.get(i) ?? 0) + 1;
        failedProbes.set(i, failed);
        if (ok) up.add(i);
        else if (failed >= 2) up.delete(i);
      }),
    );
  };
  const checks = setInterval(() => void look(), 250);
  const pick = (except?: Instance) => {
    const live = members.filter((i) => up.has(i) && i !== except);
    return live.length ? live[next++ % live.length] : undefined;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, to: Instance, retry: boolean) => {
    const out = http.request(
      { host: "127.0.0.1", port: to.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", (err: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.destroy();
      up.delete(to);
      const other = retry && err.code === "ECONNREFUSED" ? pick(to) : undefined;
      if (other) return forward(req, body, res, other, false);
      res
        .writeHead(502, { "content-type": "text/plain", [BALANCER_HEADER]: "1" })
        .end(`balancer: ${err.code ?? err.message}`);
    });
    out.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const to = pick();
      if (!to)
        return res
          .writeHead(503, { "content-type": "text/plain", [BALANCER_HEADER]: "1" })
          .end("balancer: no instance ready");
      forward(req, Buffer.concat(chunks), res, to, true);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    add(i) {
      members.push(i);
      void look();
    },
    remove(i) {
      members.splice(members.indexOf(i), 1);
      up.delete(i);
    },
    healthy: () => members.filter((i) => up.has(i)).map((i) => i.name),
    async close() {
      clearInterval(checks);
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

/** A client IP per request (TRUST_PROXY=1): the sign-in limits count per address. */
export const someIp = () =>
  `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** A user registered through the form, as a person would (the session cookie and the password). */
export async function registerUser(base: string, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${randomBytes(3).toString("hex")}@example.test`;
  const password = `Pw-${randomBytes(6).toString("hex")}-9!`;
  const res = await fetch(`${base}/user/register`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": someIp() },
    body: new URLSearchParams({ name, email, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.includes("session_token="))
    ?.split(";")[0];
  if (res.status !== 302 || !cookie) throw new Error(`registration failed: ${res.status}`);
  return { email, password, cookie: `${cookie}; ConsentApproved=true` };
}

/**
 * Clicks the verification link mailed to `email` (mail goes to `outboxDir` as .eml files
 * without SMTP): only a confirmed address gets mail from Hittad.
 */
export async function verifyEmail(base: string, outboxDir: string, email: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const f of fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir) : []) {
      // Quoted-printable soft breaks (=\r\n) and =3D undone, enough for the link.
      const text = fs
        .readFileSync(path.join(outboxDir, f), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=");
      if (!text.includes(email)) continue;
      const link = /\/user\/verify-email\?token=[^\s"<>]+/.exec(text);
      if (!link) continue;
      const res = await fetch(`${base}${link[0]}`, { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status < 400) return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no verification mail for ${email}`);
}

/**
 * POSTs a form through `base` the way a browser of ours does; answers status, Location and
 * whether the balancer answered itself.
 */
export async function postForm(base: string, pathname: string, fields: Record<string, string>, cookie?: string) {
  const res = await fetch(`${base}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": someIp(),
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
  await res.arrayBuffer();
  return {
    status: res.status,
    location: res.headers.get("location") ?? "",
    fromBalancer: res.headers.has(BALANCER_HEADER),
  };
}

/** An item of `user`'s, paid through the test checkout over HTTP; answers its id. */
export async function paidItem(base: string, db: pg.Client, user: { cookie: string }, name: string) {
  const made = await postForm(
    base,
    "/product/register",
    { name, findFee: "100", prodType: "other", contactInfo: "Ring 070-123 45 67", payment: "year", intent: "payLater" },
    user.cookie,
  );
  if (made.status !== 302) throw new Error(`item not saved: ${made.status}`);
  const { rows } = await db.query<{ id: string }>("select id from products where name = $1", [name]);
  const id = rows[0]!.id;
  await postForm(
    base,
    "/user/register-adress",
    {
      firstname: "Soak",
      lastname: "Tester",
      email: "soak@example.test",
      co: "",
      address: "Storgatan 1",
      address2: "",
      city: "Uppsala",
      state: "",
      zip: "753 20",
      country: "Sweden",
    },
    user.cookie,
  );
  const order = await postForm(base, "/order", { immediateStart: "yes", items: id, payment: "year" }, user.cookie);
  if (!order.location.startsWith("/order/checkout/"))
    throw new Error(`order not made: ${order.status} ${order.location}`);
  const paid = await postForm(base, order.location, {}, user.cookie);
  if (paid.status !== 302) throw new Error(`test payment failed: ${paid.status}`);
  return id;
}
