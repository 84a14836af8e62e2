/**
 * Size rules (decision 039): a file a reader can hold in their head. No file
 * under app/server over 500 lines, no route whose loader and action together exceed 60
 * lines (the rest belongs in a service), server/app.ts under 200 lines.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, lineCount, loaderActionLines, ROOT } from "./sizes";

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

  it("no route's loader and action together are over 60 lines", () => {
    const routes = filesUnder("app/routes", /\.tsx?$/).filter((f) => !/\.test\.tsx?$/.test(f));
    expect(routes.length).toBeGreaterThan(50);
    const over = routes.map((f) => [f, loaderActionLines(read(f), f)] as const).filter(([, n]) => n > 60);
    expect(over).toEqual([]);
  });

  it("server/app.ts is under 200 lines", () => {
    expect(lineCount(read("server/app.ts"))).toBeLessThan(200);
  });
});
