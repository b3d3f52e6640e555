import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshFactory, runScript, snapshot, transcriptOf } from './_helpers.ts';

// The compact option changes what is said, never what is remembered.
test('the compact dialect answers exactly what the verbose one does', async () => {
  const v = freshFactory();
  const c = freshFactory({ dialect: 'compact' });
  const bv = await v.factory.open(v.env);
  const bc = await c.factory.open(c.env);
  const run = await runScript(bv);
  await runScript(bc);
  const sv = await snapshot(bv, run);
  const sc = await snapshot(bc, run);
  assert.equal(sc, sv);
  const text = await transcriptOf(bc);
  assert.match(text, /^1→ \(text: /m);
  assert.match(text, /^1→ ✓ \(text: /m);
  assert.match(text, /^#1 process /m);
  assert.match(text, /^ {2}#2 done$/m);
  assert.match(text, /^∥ \[a b\] /m);
  assert.match(text, /^loop:2\/3 \(loop: l1\)$/m);
  assert.not.match(await transcriptOf(bv), /→/);
});

test.run();
