import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendJournalEvent,
  appendStatus,
  createJournal,
  readJournal,
} from '../../../src/backends/filesystem/run-journal.ts';
import {
  appendStepMarker,
  receiptMarker,
  vmLogHeader,
  writeVmLogHeader,
} from '../../../src/backends/filesystem/vm-log.ts';
import { ProseError } from '../../../src/core/errors.ts';

const fresh = () => mkdtempSync(join(tmpdir(), 'vm-log-'));

test('the header has no blank line between the heading and root:, then one blank line', () => {
  assert.is(
    vmLogHeader('20260317-143052-a7b3c9', 'research/deep-research'),
    '# run:20260317-143052-a7b3c9 deep-research\nroot: research/deep-research\n\n',
  );
  assert.is(
    vmLogHeader('20260317-143052-a7b3c9', 'src/x.prose.md'),
    '# run:20260317-143052-a7b3c9 x\nroot: src/x.prose.md\n\n',
  );
  assert.is(vmLogHeader('id', 'a b\nc'), '# run:id a-b\\nc\nroot: a-b\\nc\n\n');
});

test('each marker is appended to the same file: earlier bytes and the inode stay, steps count on', () => {
  const dir = fresh();
  writeVmLogHeader(dir, '20260317-143052-a7b3c9', 'r');
  const file = join(dir, 'vm.log.md');
  const ino = statSync(file).ino;
  let before = readFileSync(file, 'utf8');
  for (const [node, status, reason] of [
    ['a', 'rendered', undefined],
    ['a', 'skipped', undefined],
    ['b', 'failed', 'no results'],
  ] as const) {
    appendStepMarker(dir, receiptMarker(node, status, reason));
    const now = readFileSync(file, 'utf8');
    assert.ok(now.startsWith(before), 'earlier lines unchanged');
    assert.is(statSync(file).ino, ino, 'appended in place, not replaced');
    before = now;
  }
  assert.is(before.split('\n\n')[1], '1→ a ✓ rendered\n2→ a ∅ skipped\n3→ b ✗ no-results\n');
});

test('a torn last line (no newline: never acknowledged) is cut before the next marker', () => {
  const dir = fresh();
  writeVmLogHeader(dir, 'id', 'r');
  appendStepMarker(dir, receiptMarker('a', 'rendered', undefined));
  appendFileSync(join(dir, 'vm.log.md'), '2→ a ∅ ski');
  appendStepMarker(dir, receiptMarker('b', 'rendered', undefined));
  assert.is(readFileSync(join(dir, 'vm.log.md'), 'utf8'), '# run:id r\nroot: r\n\n1→ a ✓ rendered\n2→ b ✓ rendered\n');
});

test('execution.jsonl reads back the run, its status and its events; a torn last line is not read', () => {
  const dir = fresh();
  createJournal(dir, { runId: 'r1', program: 'p', status: 'running', startedAt: '2026-01-01T00:00:00Z' });
  appendJournalEvent(dir, { type: 'statement', index: 0, text: 't', status: 'executing' });
  appendStatus(dir, 'completed');
  appendFileSync(join(dir, 'execution.jsonl'), '{"event": {"type": "stat');
  const j = readJournal(dir, 'execution.jsonl')!;
  assert.is(j.run.status, 'completed');
  assert.equal(j.events, [{ type: 'statement', index: 0, text: 't', status: 'executing' }]);
  appendStatus(dir, 'failed');
  assert.is(readJournal(dir, 'execution.jsonl')!.run.status, 'failed');
});

test('a line of execution.jsonl that is not ours is E_CORRUPT at its line', () => {
  const dir = fresh();
  createJournal(dir, { runId: 'r1', program: 'p', status: 'running', startedAt: '2026-01-01T00:00:00Z' });
  appendFileSync(join(dir, 'execution.jsonl'), '{"event": {"type": "nope"}}\n');
  try {
    readJournal(dir, 'runs/r1/execution.jsonl');
    assert.unreachable('read a foreign line');
  } catch (err) {
    assert.instance(err, ProseError);
    assert.is((err as ProseError).code, 'E_CORRUPT');
    assert.equal((err as ProseError).location, { file: 'runs/r1/execution.jsonl', line: 2 });
  }
  writeFileSync(join(dir, 'execution.jsonl'), '{"status": "running"}\n');
  assert.throws(
    () => readJournal(dir, 'x'),
    (e: ProseError) => e.code === 'E_CORRUPT' && e.location?.line === 1,
  );
});

test.run();
