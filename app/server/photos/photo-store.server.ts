/**
 * Where photo bytes live (decision 035): in the database by default
 * (photo_blobs.data, so every instance on one PostgreSQL serves every photo), or in
 * S3-compatible storage when S3_* is configured (photo_blobs then keeps the hash with
 * `data` null, so orphans are found in SQL and deleted there too). A row with bytes is read
 * from the database even with S3 configured, so switching to S3 later loses nothing.
 */
import type { Config } from "../config.server";
import { logger } from "../logger.server";
import type { PhotoStore } from "../service-deps.server";
import * as repo from "./photos.repository.server";
import { S3Client } from "./s3.server";

const clients = new Map<string, S3Client>();

function s3Of(config: Config): S3Client | undefined {
  const s = config.photos.s3;
  if (!s) return undefined;
  const key = JSON.stringify(s);
  let client = clients.get(key);
  if (!client) {
    client = new S3Client(s);
    clients.set(key, client);
  }
  return client;
}

/** Where a photo's bytes live in the bucket (backups copy them; decision 048). */
export const objectKey = (hash: string) => `photos/${hash}.webp`;

/** The store S3_* names, made once by the runtime and handed to services as `deps.photos`. */
export function photoStoreOf(config: Config): PhotoStore {
  const s3 = s3Of(config);
  return {
    async put(db, { hash, bytes }, now) {
      if (!s3) {
        await repo.insertBlob(db, { hash, size: bytes.length, data: bytes, createdAt: now });
        return;
      }
      // The row first: an object in S3 is always findable from SQL, even when the upload
      // fails half way (the housekeeping sweep deletes rows no photo uses).
      await repo.insertBlob(db, { hash, size: bytes.length, data: null, createdAt: now });
      await s3.put(objectKey(hash), bytes, "image/webp");
    },
    async get(db, hash) {
      const row = await repo.readBlob(db, hash);
      if (!row) return null;
      if (row.data) return row.data;
      return s3 ? s3.get(objectKey(hash)) : null;
    },
    async deleteUnused(db, hashes) {
      const gone = await repo.deleteUnusedBlobs(db, hashes);
      for (const { hash, inS3 } of gone) {
        if (!inS3 || !s3) continue;
        // The row is gone already; a failed delete leaves an object nothing points to,
        // logged for the operator (no personal data beyond the bytes themselves).
        await s3.delete(objectKey(hash)).catch((err: unknown) => {
          logger.error({ err, hash }, "photo object not deleted from S3");
        });
      }
    },
  };
}
