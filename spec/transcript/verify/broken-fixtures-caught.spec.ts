import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';

// Each hand-broken fixture has one defect, caught by the rule named here at the line named here.
const EXPECTED: Record<string, { rule: string; line: number; severity?: 'warning' }> = {
  'frame-unclosed.txt': { rule: 'frame.unclosed', line: 2 },
  'frames-crossed.txt': { rule: 'parse.nesting', line: 22 },
  'exec-id-duplicate.txt': { rule: 'exec-id.duplicate', line: 11 },
  'exec-id-parent-missing.txt': { rule: 'exec-id.parent', line: 11 },
  'exec-id-unknown.txt': { rule: 'exec-id.unknown', line: 2 },
  'frame-depth-wrong.txt': { rule: 'frame.depth', line: 11 },
  'loop-over-max.txt': { rule: 'loop.max', line: 15 },
  'loop-skips-iteration.txt': { rule: 'loop.sequence', line: 9 },
  'parallel-missing-branch.txt': { rule: 'parallel.join', line: 6 },
  'parallel-never-joined.txt': { rule: 'parallel.unjoined', line: 1 },
  'read-before-bind.txt': { rule: 'binding.read-before-bind', line: 23 },
  'const-rebind.txt': { rule: 'binding.const-rebind', line: 3 },
  'unknown-marker.txt': { rule: 'parse.unknown-marker', line: 18, severity: 'warning' },
  'truncated.txt': { rule: 'parse.truncated', line: 32 },
  'compact-frame-unclosed.txt': { rule: 'frame.unclosed', line: 1 },
  'compact-loop-over-max.txt': { rule: 'loop.max', line: 6 },
  'compact-parallel-missing-branch.txt': { rule: 'parallel.join', line: 3 },
  'compact-retry-over-max.txt': { rule: 'retry.max', line: 4 },
  'frame-exit-wrong-block.txt': { rule: 'frame.block', line: 22 },
  'retry-over-max.txt': { rule: 'retry.max', line: 5 },
  'parallel-unknown-branch.txt': { rule: 'parallel.branch', line: 6 },
  'binding-scope-missing.txt': { rule: 'binding.scope', line: 8, severity: 'warning' },
};
const dir = new URL('../../fixtures/transcripts/broken/', import.meta.url);

test('every broken fixture has an expectation', () => {
  assert.equal(readdirSync(dir).sort(), Object.keys(EXPECTED).sort());
});

for (const [name, want] of Object.entries(EXPECTED)) {
  test(`${name} is caught by ${want.rule} at line ${want.line}`, () => {
    const findings = checkTranscript(readFileSync(new URL(name, dir), 'utf8'), name);
    const first = findings[0];
    assert.ok(first, 'at least one finding');
    assert.equal(
      [first.rule, first.line, first.severity, first.file],
      [want.rule, want.line, want.severity ?? 'error', name],
    );
    // One defect each: nothing else is an error except echoes of the same defect on later lines.
    assert.ok(
      findings.every((f) => f.severity === 'warning' || f.rule === want.rule || f.rule === 'parse.nesting'),
      JSON.stringify(findings),
    );
  });
}

test.run();
