/**
 * No import cycle under app/, type-only imports included (decision 031): a cycle means a
 * module cannot be read, tested or loaded without the ones that import it.
 */
import { describe, expect, it } from "vitest";
import { cycles, importGraph } from "./import-graph";

describe("import graph", () => {
  const graph = importGraph();

  it("sees the whole app, type imports included", () => {
    expect(graph.size).toBeGreaterThan(200);
    const deps = [...graph.entries()].find(([f]) => f.endsWith("app/server/http/errors.server.ts"))?.[1] ?? [];
    expect(deps.some((d) => d.endsWith("app/server/service-error.server.ts"))).toBe(true);
  });

  it("finds a cycle when there is one", () => {
    const g = new Map([
      ["/a", ["/b"]],
      ["/b", ["/c"]],
      ["/c", ["/a"]],
      ["/d", []],
    ]);
    expect(cycles(g)).toHaveLength(1);
  });

  it("has no import cycle under app/", () => {
    expect(cycles(graph)).toEqual([]);
  });
});
