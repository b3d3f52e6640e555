import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { strip } from './_strip.ts';

// Each marker of HEAD's compact dialect reads as the event it stands for.
const one = (line: string) => parseTranscript(line + '\n', { dialect: 'compact' }).events.map(strip);

test('N→ name ✓ completes statement N and binds name', () => {
  assert.equal(one('1→ research ✓'), [
    { kind: 'statement', index: 1, text: '', status: 'completed', binds: 'research' },
    { kind: 'bind', name: 'research' },
  ]);
});

test('N→ ✓ completes an anonymous statement; N→ ✗ error fails it', () => {
  assert.equal(one('3→ ✓'), [{ kind: 'statement', index: 3, text: '', status: 'completed' }]);
  assert.equal(one('2→ ✗ timeout'), [{ kind: 'statement', index: 2, text: '', status: 'failed', error: 'timeout' }]);
});

test('∥ [a b c] starts a parallel block, progress marks branches, done joins', () => {
  const r = parseTranscript('∥ [a b c]\n∥ [a✓ b✗ c→]\n∥ done\n').events.map(strip);
  assert.equal(r, [
    { kind: 'parallel-start', branches: ['a', 'b', 'c'], id: 'parallel@1' },
    { kind: 'branch', branch: 'a', status: 'completed', id: 'parallel@1' },
    { kind: 'branch', branch: 'b', status: 'failed', id: 'parallel@1' },
    { kind: 'branch', branch: 'c', status: 'executing', id: 'parallel@1' },
    { kind: 'parallel-join', branches: [], id: 'parallel@1' },
  ]);
});

test('loop:I/M counts iterations; loop:I/M exit(**cond**) exits on the condition', () => {
  const r = parseTranscript('loop:1/3\nloop:2/3 exit(**complete**)\n').events.map(strip);
  assert.equal(r, [
    { kind: 'loop-start', id: 'loop@1', max: 3 },
    { kind: 'loop-iteration', iteration: 1, max: 3, id: 'loop@1' },
    { kind: 'loop-iteration', iteration: 2, max: 3, id: 'loop@1' },
    { kind: 'loop-exit', reason: 'condition', iteration: 2, condition: 'complete', id: 'loop@1' },
  ]);
});

test('#ID name enters a block, nested ones get their parent from the stack, #ID done exits', () => {
  const r = parseTranscript('#1 process(data,5)\n  #2 process\n  #2 done\n#1 done\n').events.map(strip);
  assert.equal(r, [
    { kind: 'frame-enter', executionId: 1, block: 'process', args: { 1: 'data', 2: '5' }, parent: null, depth: 1 },
    { kind: 'frame-enter', executionId: 2, block: 'process', parent: 1, depth: 2 },
    { kind: 'frame-exit', executionId: 2, status: 'completed' },
    { kind: 'frame-exit', executionId: 1, status: 'completed' },
  ]);
});

test('try→, catch→ err, finally→ and call x(args) → result ✓', () => {
  assert.equal(one('try→'), [{ kind: 'try', phase: 'try' }]);
  assert.equal(one('catch→ err'), [{ kind: 'try', phase: 'catch', error: 'err' }]);
  assert.equal(one('finally→'), [{ kind: 'try', phase: 'finally' }]);
  assert.equal(one('call researcher(topic:"quantum") → result ✓'), [
    { kind: 'call', target: 'researcher', args: 'topic:"quantum"', ok: true, result: 'result' },
  ]);
  assert.equal(one('call x() → ✗ refused'), [{ kind: 'call', target: 'x', args: '', ok: false, error: 'refused' }]);
});

test('---end ends the run; plain conversation lines are not markers', () => {
  assert.equal(one('---end'), [{ kind: 'run-status', status: 'end' }]);
  assert.equal(one('The researcher came back with three sources.'), []);
});

test.run();
