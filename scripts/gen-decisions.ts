// Renders docs/decisions.md from the decision rows in conformance/decisions/*.yaml.
// `--check` fails when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDecisionRows } from '../src/conformance/load-decisions.ts';
import { renderDecisions } from '../src/core/decisions/render.ts';

const target = fileURLToPath(new URL('../docs/decisions.md', import.meta.url));
const text = renderDecisions(loadDecisionRows(fileURLToPath(new URL('../conformance', import.meta.url))));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error('docs/decisions.md is stale: run `node --import tsx scripts/gen-decisions.ts`');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
