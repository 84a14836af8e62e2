/**
 * `npm run dev` (server.js --dev: Vite middleware + SSR of server/app.ts) serves pages.
 * Guards the React Router "two copies" failure: without --conditions=development every
 * request failed with "Invalid `context` value provided to `handleRequest`".
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEnv, type TestDatabase, usingPostgres } from "../support/database";
import { freePort } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");
let db: TestDatabase | undefined;
let stop: (() => Promise<void>) | undefined;

afterAll(async () => {
  await stop?.();
  await db?.drop();
});

// Vite's dev server does not depend on the database: the SQLite leg covers it.
describe.skipIf(usingPostgres())("npm run dev", () => {
  it("serves server-rendered pages through Vite", { timeout: 150_000 }, async () => {
    db = await createTestDatabase("dev");
    const port = await freePort();
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // Run exactly what `npm run dev` runs, with this process's Node 24.
    const args = pkg.scripts.dev!.replace(/^node /, "").split(" ");
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: {
        // A shell's environment, not Vitest's own variables (NODE_ENV=test, BASE_URL=/, MODE…).
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...testEnv(db),
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_URL: `http://localhost:${port}`,
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    stop = () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    // A fresh checkout's first `npm run dev` bundles its dependencies first (Vite's
    // optimizer): over 40 s on two cores while the other integration files run.
    await expect
      .poll(() => (child.exitCode === null ? output : `exited: ${output}`), { timeout: 120_000, interval: 200 })
      .toMatch(/^(?!exited)[\s\S]*Hittad is listening/);
    // A page of the full app (every page a visitor reads or fills in is lean: no framework
    // scripts, decisions 020 and 042; an expired reset link's page is not).
    const res = await fetch(`http://127.0.0.1:${port}/resetpassword/new?token=not-a-token`, {
      headers: { "Accept-Language": "sv" },
    });
    const html = await res.text();
    expect(res.status, output).toBe(200);
    expect(html).toContain('<html lang="sv"');
    expect(html).toContain("Acceptera våra cookies för att fortsätta");
    // The browser entry is the source module served by Vite, not a file from build/.
    expect(html).toContain('href="/app/entry.client.tsx"');
    expect(html).not.toContain("/assets/");
    // A lean page's captcha script: its source module too, which Vite serves.
    const contact = await (await fetch(`http://127.0.0.1:${port}/contact`)).text();
    expect(contact).toContain('src="/app/lean/captcha-page-script.ts"');
    expect((await fetch(`http://127.0.0.1:${port}/app/lean/captcha-page-script.ts`)).status).toBe(200);
  });
});
