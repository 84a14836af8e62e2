/**
 * A local stand-in for 46elks' SMS API (https://46elks.com/docs/send-sms), speaking its
 * protocol: POST /a1/sms (or /a1/SMS) with HTTP Basic and a form body (from, to, message,
 * whendelivered); answers JSON with id and status "created". It can then post the
 * delivery report to `whendelivered` as 46elks does (id, status, delivered), answer 5xx
 * or hang for a while to test retries and time-outs. And, as 46elks does for a virtual
 * number (decision 055), it posts incoming SMS to the number's `sms_url` as a form (id, from,
 * to, message, direction=incoming, created) and resends until it gets 200–204; the answer's
 * body is the reply SMS, recorded in `messages` with the virtual number as `from`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";

export interface ReceivedSms {
  id: string;
  from: string;
  to: string;
  message: string;
  whendelivered: string | null;
  /** When the stand-in received it (ms since the epoch). */
  at: number;
}

export interface IncomingSms {
  from: string;
  to: string;
  message: string;
  /** 46elks' id; a new one when not given (give the same one to replay a resend). */
  id?: string;
}

export interface IncomingResult {
  id: string;
  /** The HTTP status of each try, in order. */
  statuses: number[];
  /** The reply SMS the answer's body held, or null. */
  reply: string | null;
}

/**
 * Posts one incoming SMS to `smsUrl` as 46elks does: a form, resent on anything but
 * 200–204 (46elks keeps trying for hours; here `tries` times, `waitMs` apart).
 */
export async function postIncomingSms(
  smsUrl: string,
  sms: IncomingSms,
  { tries = 3, waitMs = 200 }: { tries?: number; waitMs?: number } = {},
): Promise<IncomingResult> {
  const id = sms.id ?? "s" + randomBytes(16).toString("hex");
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    const res = await fetch(smsUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        id,
        from: sms.from,
        to: sms.to,
        message: sms.message,
        direction: "incoming",
        created: new Date().toISOString().replace("T", " ").replace("Z", ""),
      }),
    });
    const body = await res.text();
    statuses.push(res.status);
    if (res.status >= 200 && res.status <= 204) return { id, statuses, reply: body.trim() ? body : null };
    await new Promise((r) => setTimeout(r, waitMs));
  }
  return { id, statuses, reply: null };
}

export interface ElksStandIn {
  url: string;
  username: string;
  password: string;
  messages: ReceivedSms[];
  /** Answer the next `n` requests with this status (e.g. 503) instead of accepting them. */
  failNext(n: number, status?: number): void;
  /** Hold the next `n` requests this long before answering (time-out tests). */
  hangNext(n: number, ms: number): void;
  /** Posts a delivery report for `sms` to its whendelivered URL; answers that URL's status. */
  report(sms: ReceivedSms, status?: "sent" | "delivered" | "failed", url?: string): Promise<number>;
  waitFor(predicate: (m: ReceivedSms) => boolean, timeoutMs?: number): Promise<ReceivedSms>;
  /**
   * An SMS to the virtual number `sms.to`: posted to `smsUrl` (resent on non-2xx); a reply
   * in the answer is recorded as an SMS from `sms.to` to the sender.
   */
  incoming(smsUrl: string, sms: IncomingSms, opts?: { tries?: number; waitMs?: number }): Promise<IncomingResult>;
  close(): Promise<void>;
}

export async function startElks(): Promise<ElksStandIn> {
  const username = "u" + randomBytes(8).toString("hex");
  const password = randomBytes(12).toString("hex");
  const messages: ReceivedSms[] = [];
  const listeners = new Set<() => void>();
  let failing: { n: number; status: number } = { n: 0, status: 503 };
  let hanging: { n: number; ms: number } = { n: 0, ms: 0 };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (req.method !== "POST" || !/^\/a1\/sms$/i.test(req.url ?? "")) {
        res.writeHead(404).end("Not found");
        return;
      }
      const expected = "Basic " + Buffer.from(`${username}:${password}`).toString("base64");
      if (req.headers.authorization !== expected) {
        res.writeHead(401).end("Unauthorized");
        return;
      }
      if (hanging.n > 0) {
        hanging.n--;
        await new Promise((r) => setTimeout(r, hanging.ms));
      }
      if (failing.n > 0) {
        failing.n--;
        res.writeHead(failing.status).end("Service unavailable");
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const from = form.get("from");
      const to = form.get("to");
      const message = form.get("message");
      if (!from || !to || !message) {
        res.writeHead(400).end("Missing key from, to or message");
        return;
      }
      if (!/^\+[1-9]\d{6,14}$/.test(to)) {
        res.writeHead(400).end("Invalid to number");
        return;
      }
      const sms: ReceivedSms = {
        id: "s" + randomBytes(16).toString("hex"),
        from,
        to,
        message,
        whendelivered: form.get("whendelivered"),
        at: Date.now(),
      };
      messages.push(sms);
      for (const l of listeners) l();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          status: "created",
          direction: "outgoing",
          from,
          to,
          message,
          id: sms.id,
          created: new Date().toISOString(),
          parts: 1,
          cost: 5200,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    username,
    password,
    messages,
    failNext(n, status = 503) {
      failing = { n, status };
    },
    hangNext(n, ms) {
      hanging = { n, ms };
    },
    async report(sms, status = "delivered", url = sms.whendelivered ?? "") {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          id: sms.id,
          status,
          delivered: new Date().toISOString().replace("Z", ""),
        }),
      });
      await res.arrayBuffer();
      return res.status;
    },
    async incoming(smsUrl, sms, opts) {
      const result = await postIncomingSms(smsUrl, sms, opts);
      if (result.reply) {
        messages.push({
          id: "r" + randomBytes(16).toString("hex"),
          from: sms.to,
          to: sms.from,
          message: result.reply,
          whendelivered: null,
          at: Date.now(),
        });
        for (const l of listeners) l();
      }
      return result;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (found) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching SMS within ${timeoutMs} ms (got ${messages.length})`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
