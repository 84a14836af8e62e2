/**
 * A local stand-in for an organisation's webhook receiver (decision 061): HTTPS with the
 * push stand-in's self-signed certificate (push-service-tls/, trusted through
 * WebhookTransport.ca in-process), recording every POST as it came (headers, raw body,
 * when) so a test verifies the Standard Webhooks signature itself with the
 * `standardwebhooks` package, as a real receiver would. Answers 204 unless a test queues
 * other answers for a path (500, 410, "hang").
 */
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ServerResponse } from "node:http";
import { PUSH_CA } from "./push-service";

const KEY = fs.readFileSync(path.join(import.meta.dirname, "push-service-tls", "key.pem"));

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** What the stand-in answered. */
  status: number;
  /** When the stand-in had the whole request (ms since the epoch). */
  at: number;
}

export type Answer = number | "hang";

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** host:port, as WEBHOOK_ALLOW_HOSTS lists it. */
  hostPort: string;
  received: ReceivedWebhook[];
  /** The next answers for one path, in order; after them it answers 204 again. */
  respond(path: string, ...answers: Answer[]): void;
  /** Resolves once `count` requests for `path` have come. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const server = https.createServer({ cert: PUSH_CA, key: KEY }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const answer = answers.get(url)?.shift() ?? 204;
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      received.push({
        path: url,
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        status: answer,
        at: Date.now(),
      });
      res.writeHead(answer).end(answer >= 400 ? "not now" : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    received,
    respond(p, ...list) {
      answers.set(p, [...(answers.get(p) ?? []), ...list]);
    },
    async waitFor(p, count = 1, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const hits = received.filter((r) => r.path === p);
        if (hits.length >= count) return hits;
        if (Date.now() > end) throw new Error(`${hits.length} of ${count} webhooks for ${p} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
