/**
 * Every decision record is in docs/decisions/README.md's index: eight of forty-four had gone
 * missing because nothing looked. Held here: each `NNN-title.md` has one index line whose
 * number matches its file, each index line links to a file that exists, and the index reads
 * in numeric order. The check reads the folder, so a record added in parallel by another
 * branch needs only its own index line.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

const DIR = path.join(ROOT, "docs/decisions");

interface IndexEntry {
  /** The number the line's text starts with. */
  number: string;
  /** The file the line links to. */
  file: string;
}

/** Index lines `- [NNN Title](NNN-title.md)`. */
function readIndex(readme: string): IndexEntry[] {
  return [...readme.matchAll(/^- \[(\d{3})\b[^\]]*\]\(([^)]+)\)\s*$/gm)].map((m) => ({ number: m[1]!, file: m[2]! }));
}

/** Everything wrong between a folder's record files and its index; empty when they agree. */
function indexProblems(files: string[], index: IndexEntry[]): string[] {
  const problems: string[] = [];
  const records = files.filter((f) => /^\d{3}-.+\.md$/.test(f));
  const linked = new Set(index.map((e) => e.file));
  for (const f of records) if (!linked.has(f)) problems.push(`${f} is not in the index`);
  const seen = new Set<string>();
  for (const e of index) {
    if (!files.includes(e.file)) problems.push(`the index links ${e.file}, which does not exist`);
    if (!e.file.startsWith(`${e.number}-`)) problems.push(`the index says ${e.number} for ${e.file}`);
    if (seen.has(e.file)) problems.push(`${e.file} is in the index twice`);
    seen.add(e.file);
  }
  const numbers = index.map((e) => Number(e.number));
  numbers.forEach((n, i) => {
    if (i > 0 && n <= numbers[i - 1]!) problems.push(`${e3(n)} comes after ${e3(numbers[i - 1]!)} in the index`);
  });
  return problems;
}

const e3 = (n: number) => String(n).padStart(3, "0");

describe("docs/decisions/README.md", () => {
  const files = fs.readdirSync(DIR);
  const index = readIndex(fs.readFileSync(path.join(DIR, "README.md"), "utf8"));

  it("lists every decision record, under its own number, in numeric order", () => {
    expect(index.length).toBeGreaterThanOrEqual(40);
    expect(indexProblems(files, index)).toEqual([]);
  });

  it("would notice a record missing, a link to nothing, a wrong number and an order out of place", () => {
    const folder = ["001-a.md", "002-b.md", "003-c.md", "README.md"];
    const entry = (number: string, file: string): IndexEntry => ({ number, file });
    expect(indexProblems(folder, [entry("001", "001-a.md"), entry("003", "003-c.md")])).toEqual([
      "002-b.md is not in the index",
    ]);
    expect(
      indexProblems(folder, [
        entry("001", "001-a.md"),
        entry("002", "002-b.md"),
        entry("003", "003-c.md"),
        entry("004", "004-d.md"),
      ]),
    ).toEqual(["the index links 004-d.md, which does not exist"]);
    expect(
      indexProblems(folder, [entry("001", "001-a.md"), entry("003", "002-b.md"), entry("004", "003-c.md")]),
    ).toEqual(["the index says 003 for 002-b.md", "the index says 004 for 003-c.md"]);
    expect(
      indexProblems(folder, [entry("002", "002-b.md"), entry("001", "001-a.md"), entry("003", "003-c.md")]),
    ).toEqual(["001 comes after 002 in the index"]);
  });

  it("reads an index line as the house writes it", () => {
    expect(readIndex("- [007 Accounts: better-auth](007-accounts.md)\n- not a record\n")).toEqual([
      { number: "007", file: "007-accounts.md" },
    ]);
  });
});
