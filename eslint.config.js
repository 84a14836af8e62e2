import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The browser translates with app/i18n/react.tsx (decision 025): i18next and react-i18next
// (~18 KB gzip) stay on the server. Merged into each no-restricted-imports below, because a
// later block's setting of a rule replaces an earlier one for the same file.
const browserI18n = {
  paths: [
    { name: "i18next", message: "Browser code translates with ~/i18n/react (decision 025); i18next is server-only." },
    {
      name: "react-i18next",
      message: "Use useTranslation/Trans from ~/i18n/react (decision 025); react-i18next is not in the browser.",
    },
  ],
};
/** Server-only files (*.server.ts, app/server) and the translator's equivalence tests may use i18next. */
const i18nextAllowed = ["app/**/*.server.{ts,tsx}", "app/server/**", "app/i18n/*.test.{ts,tsx}"];

const routeDepsMessage =
  "Routes do not read deps.db or deps.config: pass deps to a service (or use deps.site, deps.cookies; decision 039).";
const routeDepsRestrictions = [
  "MemberExpression[object.name='deps'][property.name=/^(db|config)$/]",
  "MemberExpression[object.type='AwaitExpression'][property.name=/^(db|config)$/]",
  "VariableDeclarator[init.type='AwaitExpression'][init.argument.callee.name='getDeps'] > ObjectPattern > Property[key.name=/^(db|config)$/]",
  "VariableDeclarator[init.name='deps'] > ObjectPattern > Property[key.name=/^(db|config)$/]",
].map((selector) => ({ selector, message: routeDepsMessage }));

const runtimeOnlyMessage =
  "Only runtime.server.ts builds the payment provider; a service takes deps.payments (decision 039).";
const runtimeOnlyRestrictions = [
  "ImportSpecifier[imported.name='getPaymentProvider']",
  "CallExpression[callee.name='getPaymentProvider']",
].map((selector) => ({ selector, message: runtimeOnlyMessage }));

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      "data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty-pattern": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: i18nextAllowed,
    rules: { "no-restricted-imports": ["error", browserI18n] },
  },
  {
    // The service worker (issue #33) runs in the worker scope, not a window.
    files: ["public/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["tests/e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Components never import server code (style: imports go one way).
    files: ["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          ...browserI18n,
          patterns: [
            {
              group: ["**/server/**", "*.server", "**/*.server"],
              message: "Components and lib are browser-safe: no server imports.",
            },
          ],
        },
      ],
    },
  },
  {
    // Routes parse, guard, call one service, map (decision 011): no SQL from a route.
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          ...browserI18n,
          patterns: [
            {
              group: ["**/*.repository.server", "**/*.repository.server.ts"],
              message: "Routes call a service, never a repository (decision 011).",
            },
            {
              group: ["~/server/db/*", "**/server/db/*"],
              message: "Routes do not touch the database; call a service (decision 011).",
            },
            {
              group: ["~/server/runtime.server", "**/server/runtime.server", "./server/runtime.server"],
              message: "Routes hand services their dependencies from getDeps() (decision 011).",
            },
          ],
        },
      ],
    },
  },
  {
    // Routes hand `deps` to services and never read the database or the configuration
    // themselves (decision 039): what a page shows of the configuration is `deps.site`,
    // cookies are `deps.cookies`. tests/quality/route-deps-lint.test.ts proves the rule.
    // The root route's loader is a route's too.
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    rules: {
      "no-restricted-syntax": ["error", ...routeDepsRestrictions, ...runtimeOnlyRestrictions],
    },
  },
  {
    // Outside systems are made once at start-up and reach services through Deps
    // (decision 039): nothing but the runtime calls getPaymentProvider.
    // tests/quality/route-deps-lint.test.ts proves the rule.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: ["app/routes/**", "app/root.tsx", "app/server/runtime.server.ts", "app/server/orders/payments.server.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...runtimeOnlyRestrictions],
    },
  },
);
