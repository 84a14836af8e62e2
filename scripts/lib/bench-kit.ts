// What `npm run bench` and `npm run bench:scale` share: the load generator (autocannon,
// made cheap enough not to be the bottleneck), child servers, the bare node:http
// reference, CPU readings from /proc, and a load run summarised the same way.
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import type { Runtime } from "../../app/server/runtime.server";
import { root } from "./build.mjs";
import { median } from "./stats";

// The load generator must not be the bottleneck. autocannon 9 decodes every response
// body into a string (PipelinedRequestsQueue.addBody, `body += chunk`), which it only
// needs for `expectBody`, `verifyBody` and `onResponse` (none used here). For a 12 KB
// brotli body that was ~180 µs of the bench process's CPU per response: it ran at 100 %
// while the app server idled at ~45 %, so the ratio measured autocannon, not the app
// (decision 021, "The instrument"; upstream: mcollina/autocannon#485). Bytes are still
// counted (addByteCount).
{
  const queue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as {
    prototype: { addBody: (data: unknown) => void };
  };
  if (typeof queue.prototype.addBody !== "function") throw new Error("autocannon changed: see decision 021");
  queue.prototype.addBody = () => {};
}

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

export async function waitForUp(url: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${fs.readFileSync(logFile, "utf8")}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start:\n${fs.readFileSync(logFile, "utf8")}`);
}

/** Child processes of a bench, their output in `dir`, all stopped when the bench exits. */
export function childProcesses(dir: string) {
  const children: ChildProcess[] = [];
  function start(args: string[], extraEnv: Record<string, string>, logName: string) {
    const logFile = path.join(dir, logName);
    const out = fs.openSync(logFile, "w");
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...extraEnv },
      stdio: ["ignore", out, out],
    });
    children.push(child);
    return { child, logFile };
  }
  function stopAll() {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  }
  process.on("exit", stopAll);
  process.on("SIGINT", () => process.exit(130));
  return { start, stopAll };
}

/** The bare server: node:http and a fixed 4 KB HTML page, nothing else. */
export function bareServerSource(port: number) {
  return `
const page = "<!doctype html><html lang=en><head><meta charset=utf-8><title>Bare</title></head><body><main><h1>Bare</h1><p>" + "x".repeat(4096 - 120) + "</p></main></body></html>";
require("node:http").createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(page) });
  res.end(page);
}).listen(${port}, "127.0.0.1");
`;
}

/**
 * What a phone scanning a sticker sends: no cookies, gzip accepted, a language preference,
 * a phone's User-Agent (so every request is logged as a scan, decision 014: the bar holds
 * with scan logging on; a request without one would count as a bot and log nothing).
 */
export const browserHeaders = {
  "user-agent":
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  accept: "text/html,application/xhtml+xml",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "sv-SE,sv;q=0.9,en;q=0.8",
};

export interface Run {
  name: string;
  /** Share of one core the server and the load generator used while this target ran. */
  serverCpuShare: number;
  clientCpuShare: number;
  /** The server's CPU per request, µs. */
  serverCpuPerRequestUs: number;
  /** The database's (its backends serving the server, when given) and the load generator's, µs a request. */
  dbCpuPerRequestUs: number;
  clientCpuPerRequestUs: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  bytesPerRequest: number;
}

export interface Slice {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytes: number;
  /** CPU seconds of the server answering, and of this process (the load generator). */
  serverCpu: number;
  clientCpu: number;
  /** CPU seconds of the database processes given (NaN when none were). */
  dbCpu: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSecondsOf(pid: number | undefined): number {
  try {
    // The command name (field 2) is in parentheses and may itself hold ") ".
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}
function ownCpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The machine's busy and total CPU ticks since boot (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle, iowait
  return { busy: total - idle, total };
}

/**
 * Waits until the whole machine is quiet (under `share` of its CPU over 200 ms), at most
 * `maxMs`. A slice that leaves slow requests in flight (pages rendered on a cache miss,
 * 1.3 s each at a million items) would otherwise charge their tail, and the database's,
 * to whichever target runs next.
 */
export async function settle(share = 0.15, maxMs = 10_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const a = machineTicks();
    await new Promise((r) => setTimeout(r, 200));
    const b = machineTicks();
    const used = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (used < share) return performance.now() - t0;
    if (performance.now() - t0 > maxMs) {
      console.warn(`  settle: the machine was still ${Math.round(used * 100)} % busy after ${maxMs / 1000} s`);
      return performance.now() - t0;
    }
  }
}

/**
 * `connections` clients for `seconds` against `url`, each request on the path `pathFor`
 * gives; as fast as the server answers, or at most `rate` requests a second in all.
 */
export async function load(
  url: string,
  pathFor: (() => string) | null,
  seconds: number,
  connections: number,
  serverPid?: number,
  dbPids: number[] = [],
  rate?: number,
): Promise<Slice> {
  const server0 = cpuSecondsOf(serverPid);
  const client0 = ownCpuSeconds();
  const db0 = dbPids.map(cpuSecondsOf);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: browserHeaders,
    requests: pathFor ? [{ setupRequest: (req) => ({ ...req, path: pathFor() }) }] : undefined,
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytes: result.throughput.total,
    serverCpu: cpuSecondsOf(serverPid) - server0,
    clientCpu: ownCpuSeconds() - client0,
    // A backend that ended during the slice counts for nothing (its last reading is gone).
    dbCpu: dbPids.length
      ? dbPids.reduce((sum, pid, i) => {
          const used = cpuSecondsOf(pid) - db0[i]!;
          return Number.isFinite(used) ? sum + used : sum;
        }, 0)
      : Number.NaN,
  };
}

/** Slices of one target as one run: sums, the median slice's p50, the worst slice's p99. */
export function summarise(name: string, list: Slice[]): Run {
  const requests = list.reduce((a, s) => a + s.requests, 0);
  const seconds = list.reduce((a, s) => a + s.seconds, 0);
  const p50s = list.map((s) => s.p50).sort((a, b) => a - b);
  const serverCpu = list.reduce((a, s) => a + s.serverCpu, 0);
  return {
    name,
    serverCpuShare: serverCpu / seconds,
    clientCpuShare: list.reduce((a, s) => a + s.clientCpu, 0) / seconds,
    serverCpuPerRequestUs: Math.round((serverCpu / Math.max(1, requests)) * 1e6),
    dbCpuPerRequestUs: Math.round((list.reduce((a, s) => a + s.dbCpu, 0) / Math.max(1, requests)) * 1e6),
    clientCpuPerRequestUs: Math.round((list.reduce((a, s) => a + s.clientCpu, 0) / Math.max(1, requests)) * 1e6),
    requestsPerSec: Math.round(requests / seconds),
    p50Ms: p50s[Math.floor(p50s.length / 2)]!,
    // The worst slice's p99: never better than the truth.
    p99Ms: Math.max(...list.map((s) => s.p99)),
    errors: list.reduce((a, s) => a + s.errors, 0),
    non2xx: list.reduce((a, s) => a + s.non2xx, 0),
    bytesPerRequest: Math.round(list.reduce((a, s) => a + s.bytes, 0) / Math.max(1, requests)),
  };
}

/**
 * The share of `base` a target served, from slices taken in turns (slice i of each in the
 * same rotation): the median of the rotations' own shares. A pair measured a few seconds
 * apart shares the host's speed of the moment, and the median leaves out a rotation a
 * hiccup of the host spoiled (decision 042 point 19); the totals' share moved by ten
 * points between runs of the same code.
 */
export function pairedShare(target: Slice[], base: Slice[]): number {
  const rate = (s: Slice) => s.requests / Math.max(1e-9, s.seconds);
  return median(target.map((s, i) => rate(s) / Math.max(1e-9, rate(base[i]!))));
}

/** A signed-in session cookie for a new user (better-auth's own sign-up and sign-in). */
export async function signedInUser(auth: Runtime["auth"], email: string, password: string, name: string) {
  await auth.api.signUpEmail({ body: { name, email, password, language: "en" } });
  const res = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.includes("session_token="))!
    .split(";")[0]!;
  return { id: res.response.user.id, cookie };
}
