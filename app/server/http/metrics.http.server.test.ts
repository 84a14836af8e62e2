import { describe, expect, it } from "vitest";
import { routeLabel, routeTree } from "./metrics.http.server";

// The shape of a server build's `routes` table (flat, parent ids), as in this app.
const tree = routeTree({
  root: { id: "root", path: "" },
  "routes/home": { id: "routes/home", parentId: "root", index: true },
  "routes/item": { id: "routes/item", parentId: "root", path: "product/:id" },
  "routes/item-qr": { id: "routes/item-qr", parentId: "root", path: "product/:id/qr.svg" },
  "routes/item-short": { id: "routes/item-short", parentId: "root", path: ":id" },
  "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*" },
});

describe("metrics route label", () => {
  it("is the leaf route's id, so a label never carries an item id", () => {
    expect(routeLabel(tree, "/")).toBe("routes/home");
    expect(routeLabel(tree, "/product/NnhWsZBUB5")).toBe("routes/item");
    expect(routeLabel(tree, "/product/NnhWsZBUB5/qr.svg")).toBe("routes/item-qr");
    expect(routeLabel(tree, "/NnhWsZBUB5")).toBe("routes/item-short");
    expect(routeLabel(tree, "/a/b/c")).toBe("routes/not-found");
  });

  it("a single-fetch data request counts as its page", () => {
    expect(routeLabel(tree, "/product/NnhWsZBUB5.data")).toBe("routes/item");
    expect(routeLabel(tree, "/_root.data")).toBe("routes/home");
  });

  it("the app's own endpoints have fixed labels", () => {
    expect(routeLabel(tree, "/healthz")).toBe("healthz");
    expect(routeLabel(tree, "/metrics")).toBe("metrics");
    expect(routeLabel(tree, "/api/auth/callback/google")).toBe("auth");
  });
});
