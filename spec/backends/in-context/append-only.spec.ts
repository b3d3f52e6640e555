import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import type { Backend } from '../../../src/core/backend.ts';
import { freshFactory, runScript, sub, transcriptOf } from './_helpers.ts';

// Every write appends narration and leaves what was said untouched; reads and refused calls say nothing.
test('each write only appends; reads and refused writes leave the text as it was', async () => {
  const { factory, env } = freshFactory();
  const b = await factory.open(env);
  const texts: string[] = [];
  const watch: Backend = {
    ...b,
    async call(op, args, actor) {
      const before = await transcriptOf(b);
      try {
        return await b.call(op, args, actor);
      } finally {
        const after = await transcriptOf(b);
        assert.ok(after.startsWith(before), `${op} rewrote earlier narration`);
        texts.push(after);
      }
    },
  };
  const run = await runScript(watch);
  const said = await transcriptOf(b);
  await b.call('resume', { run }, VM);
  await b.call('listBindings', { run }, VM);
  await b.call('bind', { run, name: 'parts', kind: 'let', value: 'root is fine' }, sub('parts'));
  const grown = await transcriptOf(b);
  assert.ok(grown.startsWith(said) && grown.length > said.length);
  await b.call('bind', { run, name: 'c', kind: 'const', value: '1' }, sub('c'));
  const withConst = await transcriptOf(b);
  await b.call('bind', { run, name: 'c', kind: 'const', value: '2' }, sub('c')).then(
    () => assert.unreachable('const rebind'),
    (e: { code: string }) => assert.is(e.code, 'E_CONST_REBIND'),
  );
  // The VM never overwrites a subagent's binding (decision roles).
  await b.call('bind', { run, name: 'parts', kind: 'let', value: 'y' }, VM).then(
    () => assert.unreachable('role'),
    (e: { code: string }) => assert.is(e.code, 'E_ROLE'),
  );
  assert.is(await transcriptOf(b), withConst);
  assert.ok(texts.length > 20);
});

test.run();
