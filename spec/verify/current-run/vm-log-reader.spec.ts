import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readVmLog } from '../../../src/verify/current-run/read-vm-log.ts';
import { splitLines } from '../../../src/verify/current-run/text-lines.ts';
import { parseMarker } from '../../../src/verify/current-run/vm-log-marker.ts';

const read = (text: string | Uint8Array) =>
  readVmLog(splitLines(typeof text === 'string' ? Buffer.from(text) : text).lines);

test('every marker form of fs and prose.md "Event Markers" reads into its value', () => {
  const cases: [string, object][] = [
    ['1→ [input] question ✓', { kind: 'input', step: 1, name: 'question' }],
    ['2→ researcher ✓ rendered', { kind: 'outcome', step: 2, node: 'researcher', outcome: 'rendered' }],
    ['2→ researcher ∅ skipped', { kind: 'outcome', step: 2, node: 'researcher', outcome: 'skipped' }],
    ['3→ ∥start critic,fact-checker', { kind: 'parallel-start', step: 3, nodes: ['critic', 'fact-checker'] }],
    ['3a→ critic ✓', { kind: 'branch', step: 3, letter: 'a', node: 'critic', outcome: 'done' }],
    [
      '3b→ fact-checker ✓ rendered',
      { kind: 'branch', step: 3, letter: 'b', node: 'fact-checker', outcome: 'rendered' },
    ],
    ['3→ ∥done', { kind: 'parallel-done', step: 3 }],
    [
      '3→ researcher ✗ no-results',
      { kind: 'outcome', step: 3, node: 'researcher', outcome: 'error', detail: 'no-results' },
    ],
    [
      '4→ server ⇒ synthesizer (delegate: req-001)',
      { kind: 'delegate', step: 4, node: 'server', delegate: 'synthesizer', id: 'req-001' },
    ],
    ['4→   synthesizer ✓', { kind: 'delegate-done', step: 4, delegate: 'synthesizer' }],
    ['4→ server ⟳ (resumed)', { kind: 'resumed', step: 4, node: 'server' }],
    ['5→ [eval] assertion ✓', { kind: 'eval', step: 5, passed: true, text: 'assertion' }],
    [
      '5→ [eval] summary names no function ✗',
      { kind: 'eval', step: 5, passed: false, text: 'summary names no function' },
    ],
    [
      '6→ critic ⊘ terminated (max_rounds)',
      { kind: 'outcome', step: 6, node: 'critic', outcome: 'terminated', detail: 'max_rounds' },
    ],
    [
      '7→ worker ✗ missing-env:API_KEY',
      { kind: 'outcome', step: 7, node: 'worker', outcome: 'error', detail: 'missing-env:API_KEY' },
    ],
    ['---test PASS', { kind: 'test', passed: true }],
    ['---test FAIL (2/3 assertions)', { kind: 'test', passed: false }],
    ['---end 2026-03-17T14:35:22Z', { kind: 'end', at: '2026-03-17T14:35:22Z' }],
    [
      '---error 2026-03-17T14:35:22Z no-results',
      { kind: 'run-error', at: '2026-03-17T14:35:22Z', message: 'no-results' },
    ],
  ];
  for (const [line, marker] of cases) assert.equal(parseMarker(line), { marker }, line);
});

test('lines that are no marker say why, never throw', () => {
  for (const line of [
    '2→researcher ✓',
    '0→ a ✓',
    '2→ a ✓ published',
    '3→ ∥start ',
    '---end soon',
    '---test FAIL (4/3 assertions)',
    '2→ a ⊘ terminated ()',
    'x',
  ])
    assert.ok('problem' in parseMarker(line), line);
});

test("both header forms: fs's (no blank line, root a path) and prose.md's (a blank line, root a name)", () => {
  const fs = read(
    '# run:20260317-143052-a7b3c9 deep-research\nupstream: [20260306-112233-f4a5b6]\nroot: research/deep-research\n\n1→ [input] question ✓\n',
  );
  assert.equal(fs.problems, []);
  assert.equal(fs.header, {
    runId: '20260317-143052-a7b3c9',
    rootName: 'deep-research',
    upstream: ['20260306-112233-f4a5b6'],
    root: 'research/deep-research',
  });
  const prose = read(
    '# run:20260317-143052-a7b3c9 deep-research\n\nupstream: [20260317-120000-f4e5d6]\nroot: deep-research\n\n1→ [input] question ✓\n---end 2026-03-17T14:35:22Z\n',
  );
  assert.equal(prose.problems, []);
  assert.is(prose.header.root, 'deep-research');
  assert.equal(
    prose.markers.map((m) => m.line),
    [6, 7],
  );
});

test('header problems: no root, a bad upstream id, upstream after root, a second root', () => {
  const rules = (text: string) => read(text).problems.map((p) => `${p.rule}@${p.line}`);
  assert.equal(rules('# run:20260317-143052-a7b3c9 x\n\n1→ a ✓\n'), ['vmlog.header@1']);
  assert.equal(rules('# run:20260317-143052-a7b3c9 x\nupstream: [yesterday]\nroot: x\n'), ['vmlog.header@2']);
  assert.equal(rules('# run:20260317-143052-a7b3c9 x\nroot: x\nupstream: [20260306-112233-f4a5b6]\n'), [
    'vmlog.header@3',
  ]);
  assert.equal(rules('# run:20260317-143052-a7b3c9 x\nroot: x\nroot: y\n'), ['vmlog.header@3']);
  assert.equal(rules('run 20260317-143052-a7b3c9\nroot: x\n'), ['vmlog.header@1']);
});

test('an unknown line and a non-UTF-8 line are problems with their line numbers; reading goes on', () => {
  const bytes = Buffer.concat([
    Buffer.from('# run:20260317-143052-a7b3c9 x\nroot: x\n\n1→ a ✓ rendered\nnot a marker\n'),
    Buffer.from([0xc3, 0x28, 0x0a]),
    Buffer.from('2→ b ∅ skipped\n'),
  ]);
  const log = read(bytes);
  assert.equal(
    log.problems.map((p) => `${p.rule}@${p.line}`),
    ['vmlog.marker@5', 'vmlog.file@6'],
  );
  assert.equal(
    log.markers.map((m) => m.line),
    [4, 7],
  );
});

test('an empty log is a header problem, not a crash', () => {
  assert.equal(
    read('').problems.map((p) => p.rule),
    ['vmlog.header'],
  );
});

test.run();
