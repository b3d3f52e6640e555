import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { STEP_KINDS } from '../../src/conformance/steps/step-kinds.ts';

// A step kind is one file behind the dispatcher's table: adding one touches that file and the table, so every kind
// the table lists must bring its loader, runner and explanation, and the case format must name it.
const kinds = Object.entries(STEP_KINDS);

test('the table lists every step kind under its own name, with a loader, a runner and an explanation', () => {
  assert.ok(kinds.length >= 10, `only ${kinds.length} kinds`);
  for (const [name, kind] of kinds) {
    assert.is(kind.kind, name, `the table's ${name} row holds kind ${kind.kind}`);
    assert.type(kind.load, 'function', `${name} has no loader`);
    assert.type(kind.run, 'function', `${name} has no runner`);
    assert.type(kind.explain, 'function', `${name} has no explanation`);
    assert.type(kind.key, 'string', `${name} has no YAML key`);
  }
});

test('no two kinds are marked by the same YAML key', () => {
  const keys = kinds.map(([, k]) => k.key);
  assert.equal([...new Set(keys)], keys);
});

test('docs/case-format.md "Steps" names every kind', () => {
  const doc = readFileSync(new URL('../../docs/case-format.md', import.meta.url), 'utf8');
  const steps = doc.slice(doc.indexOf('\n## Steps\n'), doc.indexOf('\n## ', doc.indexOf('\n## Steps\n') + 1));
  for (const [name, kind] of kinds)
    assert.ok(new RegExp(`\\| \`${kind.key}[:\` ]`).test(steps), `the Steps table has no row for ${name}`);
});

test.run();
