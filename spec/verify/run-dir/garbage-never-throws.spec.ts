import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { verifyPath } from '../../../src/verify/registry.ts';
import { RUN_DIR_RULES } from '../../../src/verify/run-dir/rules.ts';
import { STATE_DB_RULES } from '../../../src/verify/state-db/rules.ts';
import { copyValid, RUN_ID } from './fixture-copy.ts';

const FILES = [
  `runs/${RUN_ID}/state.md`,
  `runs/${RUN_ID}/bindings/a.md`,
  `runs/${RUN_ID}/bindings/result__43.md`,
  `runs/${RUN_ID}/agents/captain/memory.md`,
  `runs/${RUN_ID}/agents/captain/captain-001.md`,
  `runs/${RUN_ID}/imports/alice--summarizer/state.md`,
  'agents.db',
];
const KNOWN = new Set([...Object.keys(RUN_DIR_RULES), ...Object.keys(STATE_DB_RULES)]);

// Text near the real formats finds more paths than random bytes: seed lines, shuffled and cut.
const SEEDISH = fc
  .array(
    fc.constantFrom(
      '# Execution State',
      'run: 20260115-143052-a7b3c9',
      '## Index',
      '### Bindings',
      '| a | b |',
      '|---|',
      '```prose',
      '```',
      '# a',
      'kind: let',
      'execution_id: 0',
      'source:',
      '---',
      '',
      '# Segment 001',
      'timestamp: x',
      'prompt: "',
      '## Summary',
      '## Call Stack',
      '| execution_id | block | depth | status |',
      '| 1 | p | 0 | executing |',
      '## Event Log',
      '- {',
      'x # <-- ',
      'SQLite format 3\0',
    ),
    { maxLength: 30 },
  )
  .map((l) => l.join('\n'));

test('garbage in any file is findings with known rules, never a throw', async () => {
  const c = copyValid();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILES),
        fc.oneof(SEEDISH, fc.string({ unit: 'binary' })),
        async (rel, text) => {
          writeFileSync(join(c.prose, rel), text);
          const { findings } = await verifyPath(c.prose, { homeDir: c.home });
          for (const f of findings) {
            assert.ok(KNOWN.has(f.rule), `unknown rule ${f.rule}`);
            assert.ok(f.hint && f.message);
          }
        },
      ),
      { numRuns: 60 },
    );
  } finally {
    c.cleanup();
  }
});

test.run();
