/**
 * The mail and SMS outbox folders (no SMTP_URL, no 46elks credentials): each message is one
 * file, written under a temporary name and renamed into place, so that whoever watches the
 * folder (a developer, a test) sees either no file or the whole message, never a file
 * still being written. The files hold addresses, numbers, texts and one-time links:
 * owner-only, in an owner-only folder.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders made by this process: a mail is one file, and a folder made once needs no mkdir per mail. */
const made = new Set<string>();

/** Writes `body` as `dir/name` at once; returns the file's path. */
export async function writeOutboxFile(dir: string, name: string, body: string | Buffer): Promise<string> {
  if (!made.has(dir)) {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    made.add(dir);
  }
  const file = path.join(dir, name);
  // A name no reader looks for (they match .eml / .txt), removed if the write fails.
  const partial = path.join(dir, `.${name}.${randomUUID()}.part`);
  try {
    await fs.writeFile(partial, body, { mode: 0o600 }).catch(async (error: unknown) => {
      // The folder was removed since (a test cleaning up, a developer emptying it): made again.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.writeFile(partial, body, { mode: 0o600 });
    });
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
  return file;
}
