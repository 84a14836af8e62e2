/** Item photo settings (decision 035): the per-account bound and optional S3 storage. */
import { z } from "zod";
import { ConfigError, emptyToUndefined, optionalString } from "./env.server";

export const photosEnv = {
  /** Item photos (decision 035): the most photo bytes one account may store, in MB. */
  PHOTO_STORAGE_MB: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(100_000).default(50)),
  /** The most photo bytes one organisation's items may store, in MB (decision 050), whoever uploads them. */
  PHOTO_STORAGE_ORGANISATION_MB: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(1_000_000).default(1000)),
  /** S3-compatible object storage for photos; without S3_ENDPOINT they live in the database. */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  S3_BUCKET: optionalString,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Key prefix inside the bucket, e.g. `hittad/`. */
  S3_PREFIX: z.preprocess(emptyToUndefined, z.string().max(200).default("")),
};

type PhotosEnv = z.infer<z.ZodObject<typeof photosEnv>>;

/** Item photos (decision 035): per-account bound, and S3 settings (absent: in the database). */
export interface PhotosConfig {
  /** A person's bound, over the photos of their personal items. */
  storageBytes: number;
  /** An organisation's bound, over the photos of its items. */
  organisationStorageBytes: number;
  s3?: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    prefix: string;
  };
}

export function photosConfig(e: PhotosEnv): PhotosConfig {
  let s3: PhotosConfig["s3"];
  if (e.S3_ENDPOINT || e.S3_BUCKET || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY) {
    if (!e.S3_ENDPOINT || !e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        "Invalid configuration:\n  S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
      );
    }
    const prefix = e.S3_PREFIX === "" || e.S3_PREFIX.endsWith("/") ? e.S3_PREFIX : `${e.S3_PREFIX}/`;
    s3 = {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      prefix,
    };
  }
  return {
    storageBytes: Math.round(e.PHOTO_STORAGE_MB * 1024 * 1024),
    organisationStorageBytes: Math.round(e.PHOTO_STORAGE_ORGANISATION_MB * 1024 * 1024),
    s3,
  };
}
