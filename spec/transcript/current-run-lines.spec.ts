import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { NarrationEvent } from '../../src/transcript/narration-event.ts';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { writeCurrent } from '../../src/transcript/write-current.ts';
import { strip } from './_strip.ts';

// The current edition's run lines (decision in-context-current-forms) are written and read back, and the texts'
// announcements ("OpenProse Run Start", v0's "OpenProse Program Start") are run starts, not conversation.
test('each run line the current writer says reads back as the event it was written from', () => {
  const events: NarrationEvent[] = [
    { kind: 'run-start', runId: 'r1', startedAt: '2026-01-15T14:30:52Z', program: 'a\n"b"', programPath: 'x/y.md' },
    { kind: 'run-switch', runId: 'r1' },
    { kind: 'run-status', status: 'interrupted', runId: 'r1' },
    { kind: 'run-status', status: 'running', runId: 'r1' },
    { kind: 'run-status', status: 'failed', runId: 'r1' },
  ];
  const text = events.map((e) => writeCurrent(e)).join('');
  const parsed = parseTranscript(text);
  assert.equal(parsed.diagnostics, []);
  const said = { said: 'run' as const };
  assert.equal(parsed.events.map(strip), [
    { ...events[0]!, ...said },
    { ...events[1]!, ...said },
    { ...events[2]!, ...said },
    { ...events[3]!, ...said },
    { kind: 'run-status', status: 'failed', runId: 'r1' },
  ]);
  assert.ok(
    text.startsWith('OpenProse Run Start (run: r1, started: 2026-01-15T14:30:52Z)\n   State mode: in-context\n'),
  );
  assert.ok(text.endsWith('\n---error (run: r1)\n'), text);
});

test('a completed run ends in ---end naming the run', () => {
  assert.is(writeCurrent({ kind: 'run-status', status: 'completed', runId: 'r1' }), '---end (run: r1)\n');
  assert.equal(parseTranscript('---end (run: r1)\n---end\n').events.map(strip), [
    { kind: 'run-status', status: 'end', runId: 'r1' },
    { kind: 'run-status', status: 'end' },
  ]);
});

test("the texts' announcements are run starts, each marked with the word it used", () => {
  const cur = parseTranscript('OpenProse Run Start\n   State mode: in-context (system is small, fits in context)\n');
  const v0 = parseTranscript(
    'OpenProse Program Start\n   State mode: in-context (program is small, fits in context)\n',
  );
  assert.equal([cur.diagnostics, v0.diagnostics], [[], []]);
  assert.equal(cur.events.map(strip), [{ kind: 'run-start', said: 'run' }]);
  assert.equal(v0.events.map(strip), [{ kind: 'run-start', said: 'program' }]);
});

test('other events are the compact markers', () => {
  assert.is(writeCurrent({ kind: 'frame-exit', executionId: 2, status: 'completed' }, 1), '  #2 done\n');
});

test.run();
