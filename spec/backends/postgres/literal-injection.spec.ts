import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onEachEngine } from './engines.ts';
import { tempEnv, VM, pgView } from './helpers.ts';

// Atomic writes inline their values as literals; whatever a value holds, it must come back as data.
const NASTY = [
  `'); DROP TABLE openprose.run; --`,
  `it's \\ a \\' back\\slash and ''quotes''`,
  `$1 $2 $$ dollar $q$ quoting $q$`,
  `E'x' U&'\\0041' /* comment */ -- dash`,
  'line1\r\nline2\ttab 😀 é ﬁ \u2028 \\x00',
];

onEachEngine(
  'values inlined into multi-statement writes round-trip exactly and never run as SQL',
  async (factory, label) => {
    {
      const env = tempEnv();
      try {
        const b = await factory.open(env);
        const { run } = await b.call('createRun', { program: 'p' }, VM);
        for (const [i, text] of NASTY.entries()) {
          const { run: nested } = await b.call('createImport', { run, handle: `h${i}`, slug: 's', program: text }, VM);
          assert.is((await b.call('getRun', { run: nested }, VM)).program, text, `${label}: ${JSON.stringify(text)}`);
        }
        const count = await pgView(b).query('SELECT count(*) AS n FROM openprose.run');
        assert.equal(
          count,
          [{ n: NASTY.length + 1 }],
          `${label}: every run is there and count(*) is a number on both engines`,
        );
        await b.close();
        await factory.dispose!(env);
      } finally {
        env.cleanup();
      }
    }
  },
);

onEachEngine('U+0000 is refused on both engines before anything is written', async (factory, label) => {
  {
    const env = tempEnv();
    try {
      const b = await factory.open(env);
      const { run } = await b.call('createRun', { program: 'p' }, VM);
      const err = await b.call('bind', { run, name: 'x', kind: 'input', value: 'a\u0000b' }, VM).catch((e) => e);
      assert.is(err.code, 'E_INVALID_ARGUMENT', label);
      assert.is((await b.call('listBindings', { run }, VM)).bindings.length, 0, `${label}: nothing written`);
      await b.close();
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  }
});

test.run();
