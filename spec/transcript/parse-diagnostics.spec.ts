import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';

// Bad input comes back as diagnostics with a line, a column and a rule; nothing throws.
const diags = (text: string) => parseTranscript(text).diagnostics.map((d) => [d.rule, d.line, d.column]);

test('an unknown [Marker] is a warning at its line and column', () => {
  assert.equal(diags('[Program] Program Start\n   [Bindng] let x = "a"\n'), [['parse.unknown-marker', 2, 4]]);
});

test('a known marker whose line cannot be read is malformed', () => {
  assert.equal(diags('[Frame+] Entering block: process\n[Program] Program Complete\n'), [['parse.malformed', 1, 1]]);
});

test('an unclosed "[" in the middle is malformed; at the very end it is truncated', () => {
  assert.equal(diags('[Progr\n[Program] Program Complete\n'), [['parse.malformed', 1, 1]]);
  assert.equal(diags('[Program] Program Complete\n[Progr'), [['parse.truncated', 2, 7]]);
});

test('a frame closed while a frame inside it is open is broken nesting', () => {
  const text =
    '[Frame+] Entering block: a (execution_id: 1, depth: 1)\n  [Frame+] Entering block: b (execution_id: 2, depth: 2)\n     Parent: execution_id 1\n[Frame-] Exiting block: a (execution_id: 1)\n';
  assert.equal(diags(text), [['parse.nesting', 4, 1]]);
});

test('a join, an exit or a #ID done with nothing open is broken nesting', () => {
  assert.equal(diags('∥ done\n#4 done\n[Loop] Loop exited: break\n'), [
    ['parse.nesting', 1, 1],
    ['parse.nesting', 2, 1],
    ['parse.nesting', 3, 1],
  ]);
});

test('empty text and text with no markers parse to nothing', () => {
  assert.equal(parseTranscript('').events, []);
  assert.equal(parseTranscript('').lineCount, 0);
  assert.equal(parseTranscript('Hello.\nNothing to see.').diagnostics, []);
});

test.run();
