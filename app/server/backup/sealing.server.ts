/**
 * Backup files as written and read (decision 048): optionally gzipped, optionally
 * encrypted with age (age-encryption, the reference TypeScript implementation; no crypto of
 * our own), hashed on the way to disk. An encrypted backup has one X25519 identity of its
 * own, stored in key.age under BACKUP_PASSPHRASE (one scrypt per backup, not per file);
 * every other file is encrypted to that identity. The age CLI opens them too:
 * `age -d key.age > key.txt && age -d -i key.txt tables/user.ndjson.gz.age | gunzip`.
 */
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from "age-encryption";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGunzip, createGzip } from "node:zlib";
import type { FileEntry } from "./manifest.server";

export const SEALED = ".age";

export interface Sealer {
  /** The key file's bytes: the identity, encrypted with the passphrase. */
  keyFile: Uint8Array;
  seal(source: Readable): Promise<Readable>;
}

export interface Opener {
  open(source: Readable): Promise<Readable>;
}

// age's passphrase encryption runs scrypt (2^18) synchronously, seconds of CPU: on a thread of
// its own, so a scheduled backup does not stop the server's event loop meanwhile.
const KEY_WORKER = `(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  const { Encrypter } = await import(workerData.lib);
  const e = new Encrypter();
  e.setPassphrase(workerData.passphrase);
  parentPort.postMessage(await e.encrypt(workerData.identity));
})();`;

function encryptWithPassphrase(passphrase: string, identity: string): Promise<Uint8Array> {
  const lib = pathToFileURL(createRequire(import.meta.url).resolve("age-encryption")).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(KEY_WORKER, { eval: true, workerData: { lib, passphrase, identity } });
    worker.once("message", (bytes: Uint8Array) => {
      void worker.terminate();
      resolve(bytes);
    });
    worker.once("error", reject);
  });
}

export async function createSealer(passphrase: string): Promise<Sealer> {
  const identity = await generateX25519Identity();
  const keyFile = await encryptWithPassphrase(passphrase, identity);
  const toIdentity = new Encrypter();
  toIdentity.addRecipient(await identityToRecipient(identity));
  return {
    keyFile,
    async seal(source) {
      const sealed = await toIdentity.encrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
      return Readable.fromWeb(sealed as WebReadableStream<Uint8Array>);
    },
  };
}

export class WrongPassphraseError extends Error {
  override name = "WrongPassphraseError";
}

/** Opens the key file with the passphrase; a wrong passphrase or a damaged key file throws. */
export async function openKeyFile(passphrase: string, keyFile: Uint8Array): Promise<Opener> {
  const byPassphrase = new Decrypter();
  byPassphrase.addPassphrase(passphrase);
  let identity: string;
  try {
    identity = await byPassphrase.decrypt(keyFile, "text");
  } catch {
    throw new WrongPassphraseError(
      "key.age cannot be opened: BACKUP_PASSPHRASE is not the passphrase this backup was made with, or key.age is damaged",
    );
  }
  const withIdentity = new Decrypter();
  withIdentity.addIdentity(identity);
  return {
    async open(source) {
      const opened = await withIdentity.decrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
      return Readable.fromWeb(opened as WebReadableStream<Uint8Array>);
    },
  };
}

/** The name a file is stored under (sealed files end in .age). */
export const storedName = (name: string, sealed: boolean) => (sealed ? `${name}${SEALED}` : name);

/**
 * Writes `source` to `dir/name` (gzipped if asked, sealed if a sealer is given) and answers
 * the stored file's checksum and size.
 */
export async function writeStored(
  dir: string,
  name: string,
  source: Readable,
  opts: { gzip: boolean; sealer?: Sealer },
): Promise<FileEntry> {
  const file = path.join(dir, storedName(name, !!opts.sealer));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let stream: Readable = opts.gzip ? source.pipe(createGzip()) : source;
  if (opts.gzip) source.on("error", (err) => stream.destroy(err));
  if (opts.sealer) stream = await opts.sealer.seal(stream);
  const hash = createHash("sha256");
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(stream, count, fs.createWriteStream(file, { mode: 0o600 }));
  return { sha256: hash.digest("hex"), bytes };
}

/** The plain bytes of a stored file as a stream (unsealed, gunzipped as asked). */
export async function readStored(
  dir: string,
  name: string,
  opts: { gzip: boolean; opener?: Opener },
): Promise<Readable> {
  let stream: Readable = fs.createReadStream(path.join(dir, storedName(name, !!opts.opener)));
  if (opts.opener) stream = await opts.opener.open(stream);
  if (!opts.gzip) return stream;
  const gunzip = createGunzip();
  stream.on("error", (err) => gunzip.destroy(err));
  return stream.pipe(gunzip);
}

export async function readAllStored(dir: string, name: string, opts: { gzip: boolean; opener?: Opener }) {
  const chunks: Buffer[] = [];
  for await (const c of await readStored(dir, name, opts)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
