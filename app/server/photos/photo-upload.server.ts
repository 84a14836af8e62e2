/**
 * The intake of the forms that carry photos (decision 050): the one way files reach the
 * photo routes. Before a byte of the body is read, the account takes one of
 * UPLOADS_PER_ACCOUNT slots and the instance one of UPLOADS_PER_INSTANCE, or the route
 * answers 429 at once ("busy"). Each file is counted against the upload limit as it
 * begins, then streamed to a file of its own in a temporary directory, cut off one byte
 * past the largest photo accepted. The route gets a FormData whose files read from disk
 * only when processed, one at a time. The directory goes, and the slots are given back,
 * when the route answers or the connection closes (success, refusal, abort).
 *
 * Decision 058: only an account with a verified email gets a slot; one client address
 * holds at most UPLOADS_PER_IP of them; a body that sends nothing for UPLOAD_IDLE_MS, or
 * is not in by UPLOAD_DEADLINE_MS, is cut off and its slots given back — an idle post
 * holds nobody's slot for long.
 */
import { fromNodeHeaders } from "better-auth/node";
import type express from "express";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_PHOTOS_PER_ITEM, PHOTO_FIELD } from "~/lib/domain/photos";
import { getDeps } from "../deps.server";
import { logger } from "../logger.server";
import { PHOTO_MAX_BYTES } from "./image.server";
import { countPhotoUpload, type PhotoError } from "./photos.service.server";
import { FORM_BODY_LIMIT, isPhotoFormPath } from "../http/body-limit.server";
import { receiveMultipart, type ReceivedForm } from "../http/multipart-to-disk.server";
import { UploadSlots } from "../http/upload-slots.server";
import { systemClock } from "../clock.server";

/** Uploads one account may have in flight on an instance: a second tab, never forty. */
export const UPLOADS_PER_ACCOUNT = 2;
/**
 * Uploads an instance receives and processes at once. Each holds at most one photo file
 * in memory while it is checked; decoding is bounded apart (PROCESSING_SLOTS).
 */
export const UPLOADS_PER_INSTANCE = 8;
/** Directories of uploads older than this were left by a process that died: removed. */
const STALE_UPLOAD_MS = 60 * 60_000;
/** Uploads one client address may have in flight on an instance (several accounts behind one address). */
export const UPLOADS_PER_IP = 4;
/** A body that sends nothing for this long is cut off. */
export const UPLOAD_IDLE_MS = 15_000;
/** A body not received in full by then is cut off (48 MB at 4 Mbit/s takes about 100 s). */
export const UPLOAD_DEADLINE_MS = 120_000;
const DIR_PREFIX = "hittad-upload-";

/** What the route learns of a photo form's POST; absent when the request did not come through here. */
export type PhotoUpload =
  | { kind: "received"; form: FormData; refusal: PhotoError | null }
  /** The account, the client address or the instance has its uploads in flight: refused unread. */
  | { kind: "busy" }
  /** The account's email is not verified: no upload slot (decision 058), refused unread. */
  | { kind: "unverified" }
  /** Not the multipart form it said it was: 400. */
  | { kind: "badForm" };

const slots = new UploadSlots(UPLOADS_PER_ACCOUNT, UPLOADS_PER_INSTANCE);
const ipSlots = new UploadSlots(UPLOADS_PER_IP, Number.MAX_SAFE_INTEGER);
const UPLOAD = Symbol("photoUpload");
type WithUpload = express.Request & { [UPLOAD]?: PhotoUpload };

export function photoUploadOf(req: express.Request): PhotoUpload | undefined {
  return (req as WithUpload)[UPLOAD];
}

function isMultipart(req: express.Request) {
  return /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
}

async function accountOf(req: express.Request): Promise<{ id: string; verified: boolean } | null> {
  if (!req.headers.cookie?.includes(".session_token=")) return null;
  const deps = await getDeps();
  const session = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
  return session ? { id: session.user.id, verified: session.user.emailVerified === true } : null;
}

/** Cuts the body off when it stalls for UPLOAD_IDLE_MS or runs past UPLOAD_DEADLINE_MS; answers a stop function. */
function watchBody(req: express.Request): () => void {
  const cut = () => req.destroy(new Error("upload stalled or too slow"));
  let idle = setTimeout(cut, UPLOAD_IDLE_MS);
  const deadline = setTimeout(cut, UPLOAD_DEADLINE_MS);
  const progress = () => {
    clearTimeout(idle);
    idle = setTimeout(cut, UPLOAD_IDLE_MS);
  };
  req.on("data", progress);
  return () => {
    clearTimeout(idle);
    clearTimeout(deadline);
    req.off("data", progress);
  };
}

/** A received file in the route's FormData: its bytes stay on disk, at `path` (null: dropped). */
export class UploadedFile extends File {
  constructor(
    bytes: Blob,
    name: string,
    type: string,
    readonly path: string | null,
  ) {
    super([bytes], name, { type });
  }
}

async function formOf(received: ReceivedForm<PhotoError>): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of received.fields) form.append(name, value);
  for (const f of received.files) {
    // A dropped file stays in the form, empty, so "too many" can still be told.
    const bytes = f.path ? await fs.openAsBlob(f.path) : new Blob([]);
    form.append(PHOTO_FIELD, new UploadedFile(bytes, f.name, f.type, f.path));
  }
  return form;
}

/** Never throws: a directory that cannot go is logged (and swept by a later process). */
async function removeDir(dir: string) {
  await fs.promises.rm(dir, { recursive: true, force: true }).catch((err: unknown) => {
    logger.warn({ err }, "upload directory not removed");
  });
}

let swept = false;
/** Once per process: directories a crashed process left behind (best effort). */
async function sweepStaleUploads(now: number) {
  if (swept) return;
  swept = true;
  const root = os.tmpdir();
  for (const name of await fs.promises.readdir(root).catch(() => [])) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    const stat = await fs.promises.stat(dir).catch(() => null);
    if (stat && now - stat.mtimeMs > STALE_UPLOAD_MS) await removeDir(dir);
  }
}

export async function photoUploadIntake(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (req.method !== "POST" || !isPhotoFormPath(req.path) || !isMultipart(req)) return next();
  const set = (upload: PhotoUpload) => ((req as WithUpload)[UPLOAD] = upload);
  // Signed out: the route sends the visitor to sign in without reading the body.
  const user = await accountOf(req);
  if (user === null) return next();
  // Unverified accounts upload too: the item form is multipart, and a new owner registers
  // items before verifying. The per-account and per-address slots and the idle and total
  // deadlines bound them as everyone else (decision 058).
  const account = user.id;
  const releaseAccount = slots.tryTake(account);
  const releaseIp = ipSlots.tryTake(req.ip ?? "");
  const release = () => {
    releaseAccount?.();
    releaseIp?.();
  };
  if (!releaseAccount || !releaseIp) {
    release();
    logger.warn({ url: req.path }, "photo upload refused: uploads in flight");
    set({ kind: "busy" });
    return next();
  }
  let dir: string | null = null;
  let closed = false;
  const cleanUp = () => {
    release();
    if (dir) void removeDir(dir);
    dir = null;
  };
  // The route is done with the files once it answers (its action runs before the headers
  // go out), however slowly the client then reads; an abort before that ends it too.
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    cleanUp();
    return writeHead.apply(this, args);
  } as typeof res.writeHead;
  res.once("close", () => {
    closed = true;
    cleanUp();
  });
  void sweepStaleUploads(systemClock());
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), DIR_PREFIX));
  dir = tmp;
  if (closed) return cleanUp();
  const deps = await getDeps();
  let stopWatch = () => {};
  try {
    const receiving = receiveMultipart<PhotoError>(req, {
      dir: tmp,
      fileField: PHOTO_FIELD,
      fileCap: PHOTO_MAX_BYTES + 1,
      maxFiles: MAX_PHOTOS_PER_ITEM,
      fieldBytes: FORM_BODY_LIMIT,
      admitFile: () => countPhotoUpload(deps, account),
    });
    stopWatch = watchBody(req);
    const received = await receiving;
    stopWatch();
    set({ kind: "received", form: await formOf(received), refusal: received.refusal });
  } catch (err) {
    stopWatch();
    // Answered already (the body limit's 413), or nobody is left to answer.
    if (res.headersSent || closed) return;
    logger.warn({ err, url: req.path }, "photo form not readable");
    set({ kind: "badForm" });
  }
  next();
}
