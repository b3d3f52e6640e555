import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDecisionFile } from '../../src/conformance/load-decisions.ts';

const file = join(import.meta.dirname, '../../conformance/decisions/world-model.yaml');
const WORLD_MODEL_DECISIONS = parseDecisionFile(readFileSync(file, 'utf8'), file).map((r) => r.row);

// Every pinned ambiguity is one row, cited by the code or the cases that follow it.
test('world-model decision rows are unique, complete and each cited by the docs', () => {
  const ids = WORLD_MODEL_DECISIONS.map((r) => r.id);
  assert.is(new Set(ids).size, ids.length);
  const doc = readFileSync(join(import.meta.dirname, '../../docs/world-model.md'), 'utf8');
  for (const r of WORLD_MODEL_DECISIONS) {
    assert.match(r.id, /^wm-[a-z0-9-]+$/);
    for (const k of ['area', 'spec', 'choice', 'why'] as const)
      assert.ok(r[k].length > 10 || k === 'area', `${r.id}.${k}`);
    assert.ok(doc.includes(r.id), `docs/world-model.md cites ${r.id}`);
  }
});

test.run();
