/**
 * A local stand-in for a browser's push service (decision 034), speaking the
 * protocol: HTTPS with a self-signed certificate (push-service-tls/, trusted by the server
 * under test through NODE_EXTRA_CA_CERTS, by in-process tests through Deps.push.ca), a POST
 * per notification to the subscription's endpoint, signed with VAPID (RFC 8292: the JWT is
 * verified here) and encrypted with aes128gcm (RFC 8291: decrypted here with the test
 * subscription's private key and auth secret, using only node:crypto). Answers 201 unless
 * a test tells a subscription to answer otherwise (404, 410, 500…) or to hang.
 *
 * `startSilentPushHost` is the other kind of push host: one that accepts connections and
 * never answers, not even the TLS handshake (decision 049: ten devices on such a host held up
 * every user's mail). It counts the connections it holds, so a test can see how many
 * delivery slots the host was given.
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, randomUUID, verify } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import path from "node:path";

const TLS_DIR = path.join(import.meta.dirname, "push-service-tls");
export const PUSH_CA_FILE = path.join(TLS_DIR, "cert.pem");
export const PUSH_CA = fs.readFileSync(PUSH_CA_FILE, "utf8");

export interface TestSubscription {
  id: string;
  endpoint: string;
  /** What PushSubscription.toJSON() gives a page. */
  keys: { p256dh: string; auth: string };
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON. */
  payload: any;
  headers: Record<string, string | string[] | undefined>;
  /** The verified VAPID claims and key. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  /** What the stand-in answered. */
  status: number;
  /** When the stand-in had the whole request (ms since the epoch). */
  at: number;
}

/** 201, another status, or "hang" (read the request, never answer). */
export type Behaviour = number | "hang";

export interface PushStandIn {
  origin: string;
  /** host:port, as PUSH_ALLOW_HOSTS lists it. */
  hostPort: string;
  port: number;
  /** A new browser subscription whose endpoint is on this stand-in. */
  subscribe(): TestSubscription;
  /** The next answers for one subscription, in order; after them it answers 201 again. */
  respond(subscriptionId: string, ...behaviours: Behaviour[]): void;
  /** Notifications received (decrypted), every status included. */
  received: ReceivedPush[];
  /** Requests that could not be verified or decrypted (each a reason); must stay empty. */
  rejected: string[];
  /** Resolves with the first received notification matching `predicate`. */
  waitFor(predicate: (p: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

interface Keys {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
}

/** A browser's subscription (a fresh P-256 key pair and auth secret) on the host at `origin`. */
function newSubscription(origin: string): { subscription: TestSubscription; keys: Keys } {
  const id = randomUUID();
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${origin}/push/${id}`;
  const keys = { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") };
  return {
    subscription: { id, endpoint, keys, toJSON: () => ({ endpoint, expirationTime: null, keys }) },
    keys: { ecdh, publicKey, auth },
  };
}

/** RFC 8291 section 3.4 and RFC 8188: one aes128gcm record, decrypted. */
export function decryptAes128gcm(body: Buffer, keys: Keys): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, expected the sender's 65-byte key`);
  if (record.length > recordSize) throw new Error("more than one record");
  const ecdhSecret = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), keys.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero or more zero bytes.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the ES256 signature checked against k. */
function verifyVapid(header: string | undefined, origin: string) {
  const m = /^vapid t=([A-Za-z0-9_.-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) throw new Error(`no VAPID authorization: ${header}`);
  const [jwt, k] = [m[1]!, m[2]!];
  const [h, p, s] = jwt.split(".");
  if (!h || !p || !s) throw new Error("malformed JWT");
  const raw = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(s, "base64url"),
  );
  if (!ok) throw new Error("VAPID signature does not verify");
  if (JSON.parse(Buffer.from(h, "base64url").toString()).alg !== "ES256") throw new Error("VAPID alg is not ES256");
  const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as { aud: string; sub: string; exp: number };
  if (claims.aud !== origin) throw new Error(`VAPID aud ${claims.aud} is not ${origin}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error("VAPID exp out of range");
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error("VAPID sub is not mailto: or https:");
  return { ...claims, publicKey: k };
}

export async function startPushService(): Promise<PushStandIn> {
  const subscriptions = new Map<string, Keys>();
  const behaviours = new Map<string, Behaviour[]>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const listeners = new Set<() => void>();
  const hanging = new Set<import("node:http").ServerResponse>();
  let origin = "";

  const server = https.createServer(
    { cert: PUSH_CA, key: fs.readFileSync(path.join(TLS_DIR, "key.pem")) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = Date.now();
        const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1];
        const keys = id ? subscriptions.get(id) : undefined;
        if (req.method !== "POST" || !id || !keys) {
          res.writeHead(404).end();
          return;
        }
        const behaviour = behaviours.get(id)?.shift() ?? 201;
        if (behaviour === "hang") {
          hanging.add(res);
          return;
        }
        try {
          if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
          if (!req.headers.ttl) throw new Error("no TTL header");
          const vapid = verifyVapid(req.headers.authorization, origin);
          const payload = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), keys).toString("utf8"));
          received.push({ subscriptionId: id, payload, headers: req.headers, vapid, status: behaviour, at });
          for (const l of listeners) l();
          res.writeHead(behaviour, { Location: `${origin}/message/${randomUUID()}` }).end();
        } catch (err) {
          rejected.push(String(err instanceof Error ? err.message : err));
          res.writeHead(400).end("bad request");
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;

  return {
    origin,
    hostPort: `127.0.0.1:${port}`,
    port,
    received,
    rejected,
    subscribe() {
      const { subscription, keys } = newSubscription(origin);
      subscriptions.set(subscription.id, keys);
      return subscription;
    },
    respond(subscriptionId, ...list) {
      behaviours.set(subscriptionId, [...(behaviours.get(subscriptionId) ?? []), ...list]);
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.find(predicate);
          if (!hit) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching push within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
        }, timeoutMs);
        if (!check()) listeners.add(check);
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface SilentPushHost {
  origin: string;
  /** host:port, as PUSH_ALLOW_HOSTS lists it. */
  hostPort: string;
  /** A browser subscription whose endpoint is on this host (valid keys; nothing ever arrives). */
  subscribe(): TestSubscription;
  /** Connections held right now. */
  readonly open: number;
  /** The most connections held at once since the start or the last resetPeak(). */
  readonly peak: number;
  /** Connections accepted in all. */
  readonly accepted: number;
  resetPeak(): void;
  close(): Promise<void>;
}

/** A host that accepts every connection and never sends a byte (see the top of this file). */
export async function startSilentPushHost(): Promise<SilentPushHost> {
  const sockets = new Set<net.Socket>();
  let peak = 0;
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    // Whatever the client sends (a TLS ClientHello) is read and ignored.
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `https://127.0.0.1:${port}`;
  return {
    origin,
    hostPort: `127.0.0.1:${port}`,
    subscribe: () => newSubscription(origin).subscription,
    get open() {
      return sockets.size;
    },
    get peak() {
      return peak;
    },
    get accepted() {
      return accepted;
    },
    resetPeak() {
      peak = sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
