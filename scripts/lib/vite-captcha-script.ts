/**
 * The lean pages' captcha script (decision 042) as a file of the client build: React
 * Router fixes the client build's inputs (its entry and the routes), so this plugin adds
 * app/lean/captcha-page-script.ts as one more chunk, and the server learns the chunk's
 * hashed name from the virtual module `virtual:hittad/captcha-script`. React Router builds
 * the client before the server, so the name is known when the server bundle asks. In
 * `vite dev` the module is served from its source path.
 */
import path from "node:path";
import type { Plugin } from "vite";

const VIRTUAL = "virtual:hittad/captcha-script";
const RESOLVED = `\0${VIRTUAL}`;

export function captchaPageScript({ entry }: { entry: string }): Plugin {
  let command: "build" | "serve" = "serve";
  let root = process.cwd();
  let ref: string | undefined;
  let fileName: string | undefined;
  return {
    name: "hittad-captcha-page-script",
    configResolved(config) {
      command = config.command;
      root = config.root;
    },
    buildStart() {
      if (command === "build" && this.environment.name === "client") {
        ref = this.emitFile({ type: "chunk", id: entry, name: "captcha-page-script" });
      }
    },
    generateBundle() {
      if (this.environment.name === "client" && ref) fileName = this.getFileName(ref);
    },
    resolveId(id) {
      return id === VIRTUAL ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      if (command === "serve") {
        return `export default ${JSON.stringify(`/${path.relative(root, entry).split(path.sep).join("/")}`)};`;
      }
      if (!fileName) this.error("the captcha page script is not in the client build (was the client built first?)");
      return `export default ${JSON.stringify(`/${fileName}`)};`;
    },
  };
}
