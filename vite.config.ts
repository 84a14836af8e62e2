import { reactRouter } from "@react-router/dev/vite";
import path from "node:path";
import { defineConfig } from "vite";
import { captchaPageScript } from "./scripts/lib/vite-captcha-script.ts";
import { purgeUnusedCss } from "./scripts/lib/vite-purge-css.ts";
import { reactOnPreact } from "./scripts/lib/vite-react-on-preact.ts";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  environments: {
    // The SSR bundle's entry is our Express app (server/app.ts), which imports the
    // React Router build through the virtual module. server.js loads it in production.
    ssr: { build: { rollupOptions: { input: "./server/app.ts" }, target: "node24" } },
  },
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3 still uses @import and global Sass functions.
        quietDeps: true,
        silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"],
      },
    },
  },
  optimizeDeps: {
    // The browser's React is Preact (decision 044). React Router is served as it is, not
    // pre-bundled, so that its `react` imports reach the plugin below like the app's.
    include: ["preact", "preact/compat", "preact/compat/client", "preact/hooks", "preact/jsx-dev-runtime", "zod"],
    exclude: [
      ...["react-router", "react-router/dom", "react", "react-dom", "react-dom/client"],
      // Server-only packages the dev scanner finds in route modules' loaders. Never sent
      // to the browser; pre-bundling them late made the first dev page load reload.
      ...["better-auth", "better-sqlite3", "kysely", "pg", "pino", "nodemailer", "pdfkit", "qrcode"],
    ],
  },
  plugins: [
    // The browser runs Preact's React compatibility layer, the server React (decision 044).
    reactOnPreact({ appDir: path.resolve(import.meta.dirname, "app") }),
    reactRouter(),
    // The captcha of the lean pages, a file of the client build (decision 042).
    captchaPageScript({ entry: path.resolve(import.meta.dirname, "app/lean/captcha-page-script.ts") }),
    // After Vite's Sass compile, before its minifier (issue #18, docs/decisions/020).
    purgeUnusedCss({
      appDir: path.resolve(import.meta.dirname, "app"),
      stylesheet: /\/app\/styles\/app\.scss(\?(?!url\b|raw\b)|$)/,
    }),
  ],
});
