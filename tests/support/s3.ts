/**
 * A local stand-in for S3-compatible object storage (decision 035): path-style PUT, GET and
 * DELETE of objects, held in memory, each request's SigV4 signature and payload hash
 * checked as S3 does (403 SignatureDoesNotMatch / 400 XAmzContentSHA256Mismatch). The
 * signing code it checks against is tested on AWS's own worked examples
 * (app/server/photos/sigv4.server.test.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sha256Hex, signRequest } from "../../app/server/photos/sigv4.server";

export const TEST_S3 = {
  bucket: "hittad-photos",
  region: "eu-north-1",
  accessKeyId: "AKIDTESTSTANDIN",
  secretAccessKey: "test-secret-of-the-s3-stand-in-0123456789",
};

export interface S3StandIn {
  url: string;
  /** Objects by key (bucket name not included). */
  objects: Map<string, Buffer>;
  requests: Array<{ method: string; key: string; status: number }>;
  /** The env a server needs to store photos here. */
  env: Record<string, string>;
  close(): Promise<void>;
}

function xmlError(res: http.ServerResponse, status: number, code: string) {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
}

export async function startS3StandIn(): Promise<S3StandIn> {
  const objects = new Map<string, Buffer>();
  const requests: S3StandIn["requests"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const [, bucket, ...rest] = url.pathname.split("/");
      const key = rest.map(decodeURIComponent).join("/");
      const answer = (status: number, code?: string, payload?: Buffer) => {
        requests.push({ method: req.method ?? "", key, status });
        if (code) return xmlError(res, status, code);
        res.writeHead(status, payload ? { "content-type": "application/octet-stream" } : {});
        res.end(payload);
      };
      const auth =
        /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
          String(req.headers.authorization ?? ""),
        );
      const date = String(req.headers["x-amz-date"] ?? "");
      const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
      if (!auth || auth[1] !== TEST_S3.accessKeyId) return answer(403, "InvalidAccessKeyId");
      if (payloadHash !== sha256Hex(body)) return answer(400, "XAmzContentSHA256Mismatch");
      const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
      if (!m || date.slice(0, 8) !== auth[2]) return answer(403, "AccessDenied");
      const at = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
      if (Math.abs(Date.now() - at) > 15 * 60_000) return answer(403, "RequestTimeTooSkewed");
      const signedNames = auth[4]!.split(";");
      const extra: Record<string, string> = {};
      for (const name of signedNames) {
        if (name === "host" || name === "x-amz-date" || name === "x-amz-content-sha256") continue;
        extra[name] = String(req.headers[name] ?? "");
      }
      const expected = signRequest(
        { method: req.method ?? "GET", url, headers: extra, payloadHash },
        { accessKeyId: TEST_S3.accessKeyId, secretAccessKey: TEST_S3.secretAccessKey, region: auth[3]!, service: "s3" },
        at,
      );
      if (auth[3] !== TEST_S3.region || expected.authorization !== req.headers.authorization) {
        return answer(403, "SignatureDoesNotMatch");
      }
      if (bucket !== TEST_S3.bucket) return answer(404, "NoSuchBucket");
      if (req.method === "PUT") {
        objects.set(key, body);
        return answer(200);
      }
      if (req.method === "GET") {
        const found = objects.get(key);
        return found ? answer(200, undefined, found) : answer(404, "NoSuchKey");
      }
      if (req.method === "DELETE") {
        objects.delete(key);
        return answer(204);
      }
      return answer(405, "MethodNotAllowed");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    objects,
    requests,
    env: {
      S3_ENDPOINT: url,
      S3_BUCKET: TEST_S3.bucket,
      S3_REGION: TEST_S3.region,
      S3_ACCESS_KEY_ID: TEST_S3.accessKeyId,
      S3_SECRET_ACCESS_KEY: TEST_S3.secretAccessKey,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
