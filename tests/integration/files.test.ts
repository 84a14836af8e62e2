/**
 * Files with secrets are owner-only (decision 012): the data folder 0700, the SQLite database
 * and its -wal/-shm files 0600 (accounts, sessions), the generated auth secret 0600.
 * SQLite only: PostgreSQL keeps its own files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestRuntime, usingPostgres } from "../support/database";

describe.skipIf(usingPostgres())("files created by the server", () => {
  it("data folder 0700; database, WAL, shared-memory and auth-secret files 0600", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "hittad-files-"));
    const dataDir = path.join(root, "data");
    const rt = await createTestRuntime({
      DATABASE_URL: `file:${path.join(dataDir, "hittad.sqlite")}`,
      AUTH_SECRET: "",
    });
    try {
      await sql`select 1`.execute(rt.database.db);
      const mode = (f: string) => fs.statSync(path.join(dataDir, f)).mode & 0o777;
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(mode("hittad.sqlite")).toBe(0o600);
      expect(mode("hittad.sqlite-wal")).toBe(0o600);
      expect(mode("hittad.sqlite-shm")).toBe(0o600);
      expect(mode("auth-secret")).toBe(0o600);
    } finally {
      await rt.database.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
