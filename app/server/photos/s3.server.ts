/**
 * A minimal S3 client (decision 035): PUT, GET and DELETE of one object over
 * fetch, signed with SigV4 (sigv4.server.ts). Path-style URLs (`{endpoint}/{bucket}/{key}`),
 * which S3, MinIO, Garage, Ceph and R2 all serve.
 */
import { EMPTY_SHA256, sha256Hex, signRequest, type SigV4Credentials } from "./sigv4.server";

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket ("" or ending in "/"). */
  prefix: string;
}

export class S3Error extends Error {
  override name = "S3Error";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

export class S3Client {
  private readonly creds: SigV4Credentials;
  constructor(
    private readonly s: S3Settings,
    private readonly clock: () => number = Date.now,
  ) {
    this.creds = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, region: s.region, service: "s3" };
  }

  private urlOf(key: string): URL {
    const base = this.s.endpoint.replace(/\/+$/, "");
    const path = `${this.s.prefix}${key}`.split("/").map(encodeURIComponent).join("/");
    return new URL(`${base}/${encodeURIComponent(this.s.bucket)}/${path}`);
  }

  private async send(method: string, key: string, body?: Uint8Array, headers: Record<string, string> = {}) {
    const url = this.urlOf(key);
    const signed = signRequest(
      { method, url, headers, payloadHash: body ? sha256Hex(body) : EMPTY_SHA256 },
      this.creds,
      this.clock(),
    );
    return fetch(url, {
      method,
      headers: signed,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const res = await this.send("PUT", key, body, { "content-type": contentType });
    if (!res.ok) throw new S3Error(`S3 PUT ${key}: ${res.status} ${await res.text()}`, res.status);
    await res.arrayBuffer();
  }

  /** The object's bytes, or null when there is none. */
  async get(key: string): Promise<Buffer | null> {
    const res = await this.send("GET", key);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    if (!res.ok) throw new S3Error(`S3 GET ${key}: ${res.status} ${await res.text()}`, res.status);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Deletes the object; deleting one that is not there is no error (S3 answers 204 too). */
  async delete(key: string): Promise<void> {
    const res = await this.send("DELETE", key);
    if (!res.ok && res.status !== 404) {
      throw new S3Error(`S3 DELETE ${key}: ${res.status} ${await res.text()}`, res.status);
    }
    await res.arrayBuffer();
  }
}
