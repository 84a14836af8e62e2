/**
 * Routes never read the database or the configuration themselves (decision 039): the
 * ESLint rule for app/routes fails on each way a route could reach them.
 */
import { ESLint } from "eslint";
import { describe, expect, it, vi } from "vitest";
import { ROOT } from "./sizes";

const eslint = new ESLint({ cwd: ROOT });
// The first lint loads the whole ESLint configuration (TypeScript parser, plugins): seconds
// on a busy 2-core machine, past Vitest's default 5 s.
vi.setConfig({ testTimeout: 60_000 });

async function routeProblems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/app/routes/lint-probe.ts` });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

describe("routes keep deps.db and deps.config out", () => {
  it.each([
    ["deps.db", "export async function loader() { const deps = await getDeps(); return deps.db; }"],
    ["deps.config", "export async function loader() { const deps = await getDeps(); return deps.config.captcha; }"],
    ["(await getDeps()).config", "export async function loader() { return (await getDeps()).config; }"],
    [
      "{ config } = await getDeps()",
      "export async function loader() { const { config } = await getDeps(); return config; }",
    ],
    [
      "{ db } = deps",
      "export async function loader() { const deps = await getDeps(); const { db } = deps; return db; }",
    ],
  ])("a route using %s fails the lint", async (_name, code) => {
    const problems = await routeProblems(`declare function getDeps(): Promise<any>;\n${code}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("decision 039");
  });

  it("a route handing deps to a service, or using deps.site and deps.cookies, passes", async () => {
    const code = `declare function getDeps(): Promise<any>;
declare function service(deps: unknown): Promise<unknown>;
export async function loader() {
  const deps = await getDeps();
  return [await service(deps), deps.site.seller, deps.cookies.flash("saved")];
}
`;
    expect(await routeProblems(code)).toEqual([]);
  });
});

async function problemsIn(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

describe("only the runtime builds the payment provider (decision 039)", () => {
  const code = `import { getPaymentProvider } from "./payments.server";
export const provider = (config: never) => getPaymentProvider(config);
`;

  it.each(["app/server/orders/lint-probe.service.server.ts", "app/routes/lint-probe.ts", "server/lint-probe.ts"])(
    "%s importing and calling getPaymentProvider fails the lint",
    async (file) => {
      const problems = await problemsIn(file, code);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toContain("deps.payments");
    },
  );

  it("runtime.server.ts builds it", async () => {
    expect(await problemsIn("app/server/runtime.server.ts", code)).toEqual([]);
  });
});
