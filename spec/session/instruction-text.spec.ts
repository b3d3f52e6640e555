import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lines, oneLine } from '../../src/session/instruction-text.ts';

test('oneLine: a line break in the template, with the spaces around it, becomes one space', () => {
  const who = 'the VM';
  assert.is(
    oneLine`When done, return these lines to ${who}
      (not your output),
      with the summary filled in:`,
    'When done, return these lines to the VM (not your output), with the summary filled in:',
  );
});

test('oneLine leaves substituted text alone, line breaks included; lines() ends every line', () => {
  const block = 'a\n  b\n';
  assert.is(oneLine`x ${block}y`, 'x a\n  b\ny');
  assert.is(lines('first', '', `  ${'indented'}`), 'first\n\n  indented\n');
  assert.is(lines(), '');
});

test.run();
