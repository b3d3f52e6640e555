// Fails when a conformance case cites a decision (`decision ID` in a spec: line) that has no row in the table.
import { fileURLToPath } from 'node:url';
import { loadDecisionRows } from '../src/conformance/load-decisions.ts';
import { badCitations } from '../src/conformance/decision-citations.ts';

const cases = fileURLToPath(new URL('../conformance/cases', import.meta.url));
const DECISION_ROWS = loadDecisionRows(fileURLToPath(new URL('../conformance', import.meta.url)));
const bad = badCitations(process.argv[2] ?? cases, new Set(DECISION_ROWS.map((r) => r.id)));
for (const b of bad)
  console.error(
    `${b.file}:${b.line}: cites decision "${b.id}", which has no row in conformance/decisions/ (docs/decisions.md)`,
  );
if (bad.length) {
  console.error(`${bad.length} citation(s) of missing decisions: add the row, or cite an existing id`);
  process.exit(1);
}
console.log(`decision citations: every decision the cases cite has a row (${DECISION_ROWS.length} rows)`);
