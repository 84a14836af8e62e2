import { reactRouter } from "@react-router/dev/vite";
import path from "node:path";
import { defineConfig } from "vite";
import { captchaPageScript } from "./scripts/lib/vite-captcha-script.ts";
import { purgeUnusedCss } from "./scripts/lib/vite-purge-css.ts";

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
    include: ["react", "react-dom", "react-dom/client", "react-router", "react-router/dom"],
    // Server-only packages the dev scanner finds in route modules' loaders. Never sent
    // to the browser; pre-bundling them late made the first dev page load reload.
    exclude: ["better-auth", "better-sqlite3", "kysely", "pg", "pino", "nodemailer", "pdfkit", "qrcode"],
  },
  plugins: [
    reactRouter(),
    // The captcha of the lean pages, a file of the client build (decision 042).
    captchaPageScript({ entry: path.resolve(import.meta.dirname, "app/lean/captcha-page-script.ts") }),
    // After Vite's Sass compile, before its minifier (issue #18, docs/decisions/020).
    purgeUnusedCss({
      appDir: path.resolve(import.meta.dirname, "app"),
      stylesheet: /\/app\/styles\/(app|lean)\.scss(\?(?!url\b|raw\b)|$)/,
    }),
  ],
});
