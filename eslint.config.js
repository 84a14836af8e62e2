import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
);
