/**
 * One HTTPS POST to a host someone outside chose (a browser's push service, an
 * organisation's webhook): resolved only to public addresses unless it is an allowed
 * stand-in, given up after `timeoutMs`, and of the answer only ANSWER_MAX_BYTES read.
 * Never throws: each sender maps the answer or the error to its own outcome.
 */
import type { IncomingHttpHeaders } from "node:http";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { PRIVATE_ADDRESS_CODE, publicOnlyLookup, type ParsedEndpoint } from "./public-address.server";

/** Of an answer only this much is read (for a log line or an error). */
export const ANSWER_MAX_BYTES = 4096;

export type OutboundAnswer =
  { status: number; headers: IncomingHttpHeaders; text: string } | { error: string; privateAddress: boolean };

export function postToPublicHost(request: {
  parsed: ParsedEndpoint;
  /** An allowed stand-in (PUSH_ALLOW_HOSTS, WEBHOOK_ALLOW_HOSTS): may resolve to loopback. */
  allowed: boolean;
  headers: Record<string, string | number>;
  body: Buffer | string | undefined;
  agent: https.Agent;
  timeoutMs: number;
  /** Extra certificate authorities a test's stand-in is signed by. */
  ca?: readonly string[];
}): Promise<OutboundAnswer> {
  const { parsed, allowed, timeoutMs, ca } = request;
  return new Promise<OutboundAnswer>((resolve) => {
    let settled = false;
    const done = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = https.request({
      hostname: parsed.hostname,
      port: parsed.url.port || 443,
      path: `${parsed.url.pathname}${parsed.url.search}`,
      method: "POST",
      headers: request.headers,
      agent: request.agent,
      servername: net.isIP(parsed.hostname) ? undefined : parsed.hostname,
      ...(allowed ? {} : { lookup: publicOnlyLookup }),
      ...(ca ? { ca: [...tls.rootCertificates, ...ca] } : {}),
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (err: Error & { code?: string }) =>
      done({ error: err.message, privateAddress: err.code === PRIVATE_ADDRESS_CODE }),
    );
    req.on("response", (res) => {
      let text = "";
      const finish = () => done({ status: res.statusCode ?? 0, headers: res.headers, text });
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        if (text.length >= ANSWER_MAX_BYTES) {
          // The rest of a long answer is not waited for.
          text = text.slice(0, ANSWER_MAX_BYTES);
          finish();
          res.destroy();
        }
      });
      res.on("end", finish);
      res.on("error", finish);
      res.on("close", finish);
    });
    if (request.body) req.write(request.body);
    req.end();
  });
}
