import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { parseStateMd, renderStateMd } from '../../../src/backends/filesystem/state-md.ts';
import { ProseError } from '../../../src/core/errors.ts';

const head = '# Execution State\n\nrun: 20260115-143052-a7b3c9\nprogram: p.prose\nstarted: 2026-01-15T14:30:52Z\n\n';

function refusal(text: string): ProseError {
  try {
    parseStateMd(text, 'state.md');
  } catch (err) {
    assert.instance(err, ProseError);
    return err as ProseError;
  }
  throw new Error('expected state.md to be refused');
}

test("a state.md of ours cut before its event log is refused, not read as the seed's", () => {
  const ours = renderStateMd(
    {
      runId: 'r',
      programPath: 'p',
      status: 'running',
      started: 's',
      updated: 's',
      events: [{ type: 'frame-enter', executionId: 1, block: 'b', parent: null, depth: 1 }],
    },
    { bindings: [], agents: [] },
  );
  const cut = ours.slice(0, ours.indexOf('## Event Log'));
  const e = refusal(cut);
  assert.is(e.code, 'E_CORRUPT');
  assert.match(e.message, /no "## Event Log" section/);
});

test("the seed's markers become events: retry, executing, complete; unreached lines none", () => {
  const doc = parseStateMd(
    `${head}## Execution Trace\n\n\`\`\`prose\nlet a = session "A"   # --> bindings/a.md\nsession "B"   # <-- RETRYING (attempt 2/3)\nsession "C"   # [...next...]\n\`\`\`\n`,
    'state.md',
  );
  assert.is(doc.status, 'running');
  assert.is(doc.updated, doc.started);
  assert.equal(doc.events, [
    { type: 'statement', index: 1, text: 'let a = session "A"', status: 'completed' },
    { type: 'retry', index: 2, attempt: 2, max: 3 },
    { type: 'statement', index: 2, text: 'session "B"', status: 'executing' },
  ]);
});

test('a Call Stack whose depths skip a level is E_CORRUPT at its line', () => {
  const e = refusal(
    `${head}## Call Stack\n\n| execution_id | block | depth | status |\n|---|---|---|---|\n| 7 | p | 3 | executing |\n| 5 | p | 1 | waiting |\n`,
  );
  assert.is(e.code, 'E_CORRUPT');
  assert.match(e.message, /frame 7 at depth 3 has no frame at depth 2/);
  assert.is(e.location?.line, 11);
});

test('whatever a hand-written seed state.md holds, it is read or refused with E_CORRUPT, never a crash', () => {
  const line = fc.oneof(
    fc.constantFrom(
      '## Execution Trace',
      '## Active Constructs',
      '## Call Stack',
      '```prose',
      '```',
      '### Parallel (p)',
      '### Loop (l)',
      '- a: complete',
      '- iteration: 2/3',
      '- strategy: any',
      '| 1 | p | 1 | executing |',
      '| 2 | p | 2 | waiting | 1 |',
      'x # <-- EXECUTING',
      'y # (complete)',
      '- b: weird',
      '| x | p | 0 | executing |',
    ),
    fc.string({ maxLength: 20 }),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 25 }), (lines) => {
      try {
        parseStateMd(head + lines.join('\n'), 'state.md');
      } catch (err) {
        if (!(err instanceof ProseError) || err.code !== 'E_CORRUPT') throw err;
      }
    }),
    { numRuns: 300 },
  );
});

test.run();
