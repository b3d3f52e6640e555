import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { createTranscriptBackend } from '../../../src/backends/in-context/in-context-factory.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { freshFactory, sub, transcriptOf } from './_helpers.ts';

// The live store reads only the lines it appended; a store reading the whole text from scratch must agree.
const op = fc.oneof(
  fc.record({
    op: fc.constant('bind' as const),
    name: fc.constantFrom('a', 'b', 'c'),
    kind: fc.constantFrom('let', 'const' as const),
    value: fc.string({ unit: 'binary', maxLength: 8 }),
    frame: fc.nat(3),
  }),
  fc.record({ op: fc.constant('enter' as const), parent: fc.nat(3) }),
  fc.record({ op: fc.constant('exit' as const), frame: fc.nat(3) }),
  fc.record({ op: fc.constant('run' as const) }),
);

test('after any sequence of writes, reading the whole text again answers the same', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { maxLength: 25 }),
      fc.constantFrom('verbose', 'compact' as const),
      async (ops, dialect) => {
        const { factory, env } = freshFactory({ dialect });
        const b = await factory.open(env);
        const runs = [(await b.call('createRun', { program: 'p' }, VM)).run];
        for (const o of ops) {
          const run = runs.at(-1)!;
          const scope = (n: number) => (n === 0 ? null : n);
          await (async () => {
            if (o.op === 'bind')
              return b.call(
                'bind',
                { run, name: o.name, kind: o.kind, value: o.value, executionId: scope(o.frame) },
                sub(o.name, scope(o.frame)),
              );
            if (o.op === 'enter') return b.call('enterFrame', { run, block: 'blk', parent: scope(o.parent) }, VM);
            if (o.op === 'exit') return b.call('exitFrame', { run, executionId: o.frame }, VM);
            runs.push((await b.call('createRun', { program: 'q' }, VM)).run);
            return undefined;
          })().catch((e: { code?: string }) => assert.ok(e.code && e.code !== 'E_CORRUPT', String(e)));
        }
        const fresh = createTranscriptBackend({ text: await transcriptOf(b) }, DEFAULT_DECISIONS, dialect);
        for (const run of runs) {
          assert.equal(await fresh.call('resume', { run }, VM), await b.call('resume', { run }, VM));
          for (const x of (await b.call('listBindings', { run }, VM)).bindings) {
            const args = { run, name: x.name, executionId: x.executionId };
            assert.equal(await fresh.call('resolve', args, VM), await b.call('resolve', args, VM));
          }
        }
      },
    ),
    { numRuns: 100 },
  );
});

test.run();
