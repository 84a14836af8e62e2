/**
 * Writes the feature graph of app/server into docs/architecture.md (decision 053), from
 * the imports as they are: `npm run architecture` after a change of who imports whom.
 * tests/quality/feature-edges.test.ts fails while the page shows another graph.
 */
import fs from "node:fs";
import { DOC, featureEdges, graphSection, withGraphSection } from "./lib/feature-graph";

const doc = fs.readFileSync(DOC, "utf8");
const next = withGraphSection(doc, graphSection(featureEdges()));
if (next === doc) console.log("docs/architecture.md: the feature graph is up to date");
else {
  fs.writeFileSync(DOC, next);
  console.log("docs/architecture.md: feature graph written");
}
