/**
 * The browser runs Preact's React compatibility layer instead of React DOM (decision 044):
 * in the client environment, `react` resolves to a module made here (`preact/compat` and
 * app/preact/react.ts, which adds what compat lacks), `react-dom` and `react-dom/client` to
 * Preact's, the JSX runtime to Preact's. The server (SSR environment) keeps React 19.
 * In `npm run dev` React's fast refresh does not reach Preact, so a changed module the
 * browser loaded reloads the page (a changed stylesheet is left to Vite as before).
 */
import path from "node:path";
import type { Plugin } from "vite";

const REACT = "\0hittad:react-on-preact";

const TO_PREACT: Record<string, string> = {
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/jsx-runtime",
  "react/jsx-dev-runtime": "preact/jsx-dev-runtime",
};

export function reactOnPreact({ appDir }: { appDir: string }): Plugin {
  const additions = path.join(appDir, "preact/react.ts");
  return {
    name: "hittad-react-on-preact",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    async resolveId(id, importer, options) {
      if (id === "react") return REACT;
      const to = TO_PREACT[id];
      return to ? this.resolve(to, importer, { ...options, skipSelf: true }) : null;
    },
    hotUpdate({ file, modules }) {
      // Only a module the browser has loaded; not the database, the outboxes, server code.
      if (modules.length === 0 || /\.s?css$/.test(file)) return;
      this.environment.hot.send({ type: "full-reload" });
      return [];
    },
    load(id) {
      if (id !== REACT) return null;
      return [
        `export * from "preact/compat";`,
        `export { default } from "preact/compat";`,
        `export { useOptimistic } from ${JSON.stringify(additions)};`,
      ].join("\n");
    },
  };
}
