import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StderrRing } from '../../src/plugin/stderr-ring.ts';

test('the ring keeps only the last bytes, cut at a line start', () => {
  const ring = new StderrRing(64);
  for (let i = 0; i < 100; i++) ring.push(Buffer.from(`line ${i}\n`));
  const text = ring.text();
  assert.ok(text.length <= 64);
  assert.ok(text.endsWith('line 99'));
  assert.ok(text.startsWith('line '), text);
});

test('a short stderr is kept whole', () => {
  const ring = new StderrRing(64);
  ring.push(Buffer.from('a\n'));
  ring.push(Buffer.from('b\n'));
  assert.is(ring.text(), 'a\nb');
});

test.run();
