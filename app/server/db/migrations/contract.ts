/**
 * Expand, then contract (decision 048): a release adds what the next one uses (a table, a
 * column) while the previous release still runs beside it; only a later release drops what
 * nothing reads any more. A migration that drops or renames a table or a column says so by
 * exporting `contract`, naming the earlier migration that expanded and what it drops.
 * tests/integration/migration-rule.test.ts applies every migration one by one and fails on
 * anything that vanishes without this.
 */
export interface ContractStep {
  /** The earlier migration whose expand this completes, e.g. "0049-order-notes". */
  expandedIn: string;
  /** What vanishes: "table" or "table.column" (a rename vanishes under its old name). */
  drops: string[];
}
