/**
 * Size rules (decision 039): a file a reader can hold in their head. No file
 * under app/server over 500 lines, no route module with more than 60 lines of server code
 * (decision 059: loader, action, headers and what only they use; the rest belongs in a
 * service or the feature's `*.http.server.ts`), server/app.ts under 200 lines.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, lineCount, loaderActionLines, ROOT, routeModules, serverCodeLines } from "./sizes";

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("size rules", () => {
  it("measures a route's loader and action, whether functions or constants", () => {
    const route = [
      "export async function loader() {",
      "  return 1;",
      "}",
      "function helper() {}",
      "export const action = async () => {",
      "  return 2;",
      "};",
    ].join("\n");
    expect(loaderActionLines(route)).toBe(6);
  });

  it("no file under app/server is over 500 lines", () => {
    const files = filesUnder("app/server", /\.tsx?$/);
    expect(files.length).toBeGreaterThan(100);
    const over = files.map((f) => [f, lineCount(read(f))] as const).filter(([, n]) => n > 500);
    expect(over).toEqual([]);
  });

  it("counts a route's server code: its server exports and what only they use, not the component's", () => {
    const route = [
      'import { data } from "react-router";',
      "const DONE = { saved: 1 };", // server only, through the helper
      "type Shared = { a: string };", // the component uses it too
      "function doneOf(q: string) {",
      "  return q in DONE;",
      "}",
      "export function headers() {",
      "  return {};",
      "}",
      "export async function loader() {",
      "  return data({ done: doneOf('x') } as Shared);",
      "}",
      "export const action = async () => null;",
      "function Row(p: Shared) {",
      "  return p.a;",
      "}",
      "export default function Page(p: Shared) {",
      "  return Row(p);",
      "}",
    ].join("\n");
    // DONE 1 + doneOf 3 + headers 3 + loader 3 + action 1.
    expect(serverCodeLines(route)).toBe(11);
  });

  it("no route module, the root route's included, has more than 60 lines of server code", () => {
    const routes = routeModules();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes).toContain("app/root.tsx");
    const over = routes.map((f) => [f, serverCodeLines(read(f), f)] as const).filter(([, n]) => n > 60);
    expect(over).toEqual([]);
  }, 60_000);

  it("server/app.ts is under 200 lines", () => {
    expect(lineCount(read("server/app.ts"))).toBeLessThan(200);
  });
});
