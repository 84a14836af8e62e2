/**
 * The money paths keep a spec beside them: payment events, renewals, checkout, the alert
 * fan-out and trusted contacts each have a test file that lists their rules at its top, each
 * rule either tested there ("Here.") or "held by" a named test elsewhere. This holds the
 * pointers: every file a list names exists, and every test name it quotes (a prefix, "…"
 * where words are left out) is still in that file, so renaming or deleting the test that
 * holds a rule fails here instead of leaving the rule unheld.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

/** Each money-path service and the spec beside it. */
const SPECS: Record<string, string> = {
  "app/server/orders/payment-events.service.server.ts": "app/server/orders/payment-events.service.server.test.ts",
  "app/server/orders/renewals.service.server.ts": "app/server/orders/renewals.service.server.test.ts",
  "app/server/orders/checkout.service.server.ts": "app/server/orders/checkout.service.server.test.ts",
  "app/server/alerts/fanout.service.server.ts": "app/server/alerts/fanout.service.server.test.ts",
  // Trusted contacts: four services, one spec for the feature.
  "app/server/trusted-contacts/trusted-contacts.service.server.ts":
    "app/server/trusted-contacts/trusted-contacts.spec.server.test.ts",
  "app/server/trusted-contacts/invite.service.server.ts":
    "app/server/trusted-contacts/trusted-contacts.spec.server.test.ts",
  "app/server/trusted-contacts/confirm.service.server.ts":
    "app/server/trusted-contacts/trusted-contacts.spec.server.test.ts",
  "app/server/trusted-contacts/reply.service.server.ts":
    "app/server/trusted-contacts/trusted-contacts.spec.server.test.ts",
};

interface Pointer {
  file: string;
  /** The quoted test name's fragments, in order; empty when only the file is named. */
  fragments: string[];
}

/** The opening comment of a file as one line of text (no leading asterisks, single spaces). */
function headerOf(text: string): string {
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(text);
  return (m?.[1] ?? "").replace(/\n\s*\*/g, " ").replace(/\s+/g, " ");
}

/**
 * The test files a rule list points at, resolved from `dir`, one pointer per quoted test name
 * (`file "name" and "other name"` names two tests of one file).
 */
export function pointersOf(header: string, dir: string): Pointer[] {
  return [...header.matchAll(/((?:tests\/)?[\w./-]+\.test\.ts)((?:\s+(?:and\s+)?"[^"]+")*)/g)].flatMap((m) => {
    const file = m[1]!.startsWith("tests/") ? m[1]! : path.posix.join(dir, m[1]!);
    const names = [...m[2]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!);
    const fragments = (name: string) =>
      name
        .split("…")
        .map((f) => f.trim())
        .filter(Boolean);
    return names.length === 0 ? [{ file, fragments: [] }] : names.map((n) => ({ file, fragments: fragments(n) }));
  });
}

/** Whether `text` holds the fragments in order (whitespace as one space). */
export function holds(text: string, fragments: string[]): boolean {
  const flat = text.replace(/\s+/g, " ");
  let from = 0;
  for (const f of fragments) {
    const at = flat.indexOf(f, from);
    if (at < 0) return false;
    from = at + f.length;
  }
  return true;
}

describe("the money paths' specs", () => {
  for (const [service, spec] of Object.entries(SPECS)) {
    it(`${spec} lists ${path.basename(service)}'s rules and points only at tests that exist`, () => {
      expect(fs.existsSync(path.join(ROOT, service))).toBe(true);
      const header = headerOf(fs.readFileSync(path.join(ROOT, spec), "utf8"));
      expect(header).toMatch(/\bHere\b/);
      const pointers = pointersOf(header, path.posix.dirname(spec));
      expect(pointers.length).toBeGreaterThan(3);
      const broken = pointers.filter((p) => {
        const file = path.join(ROOT, p.file);
        return !fs.existsSync(file) || !holds(fs.readFileSync(file, "utf8"), p.fragments);
      });
      expect(broken).toEqual([]);
    });
  }

  it("would notice a renamed test and a moved file", () => {
    const header = headerOf(
      '/**\n * 1. Held by tests/integration/orders.test.ts "a replay …\n * changes nothing" and "a late one" and billing.test.ts.\n */',
    );
    expect(pointersOf(header, "app/server/orders")).toEqual([
      { file: "tests/integration/orders.test.ts", fragments: ["a replay", "changes nothing"] },
      { file: "tests/integration/orders.test.ts", fragments: ["a late one"] },
      { file: "app/server/orders/billing.test.ts", fragments: [] },
    ]);
    expect(holds('it("a replay of the event changes nothing", …)', ["a replay", "changes nothing"])).toBe(true);
    expect(holds('it("a replay of the event is refused", …)', ["a replay", "changes nothing"])).toBe(false);
    expect(holds('it("changes nothing: a replay", …)', ["a replay", "changes nothing"])).toBe(false);
  });
});
