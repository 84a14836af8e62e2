/**
 * Starts the production server (build/) as a child process on a free port, the way
 * `npm start` runs it. Integration and end-to-end tests talk to it over HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface TestServer {
  url: string;
  port: number;
  process: ChildProcess;
  logs: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string>, opts: { port?: number } = {}): Promise<TestServer> {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` first (npm test does it).");
  }
  const port = opts.port ?? (await freePort());
  env = { BASE_URL: `http://localhost:${port}`, ...env };
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      HITTAD_TEST_RUN: "1",
      ...env,
      // The start-up line below is an info log; the output is only kept, not printed.
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const actualPort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /"port":(\d+)[^\n]*"msg":"Hittad is listening"/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const url = env.BASE_URL!;
  // A server that dies on its own fails the test that uses it with "fetch failed" and
  // nothing else: print why (its last log lines), so a CI log tells what happened.
  let stopping = false;
  child.on("exit", (code) => {
    // Killed by a signal (a test's kill -9) is on purpose; an exit code is the server's own.
    if (stopping || code === null) return;
    console.error(`test server on port ${actualPort} exited unexpectedly (${code}):\n${output.slice(-4000)}`);
  });
  return {
    url,
    port: actualPort,
    process: child,
    logs: () => output,
    stop(signal = "SIGTERM") {
      stopping = true;
      return new Promise((resolve) => {
        // Already gone (exited, or killed by a signal such as a test's SIGKILL).
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
