import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import type { Backend, BackendEnv } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { checkName } from '../../src/core/names.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { hostileText } from './_arbitraries.ts';

// decision names, end to end on the filesystem backend: a name the decision refuses is E_INVALID_NAME and writes
// nothing; a name it accepts is its own file and reads back exactly, at root and in a frame.
const isValid = (s: string) => {
  try {
    checkName('binding', s);
    return true;
  } catch {
    return false;
  }
};
// The value names its binding through JSON, so a name with a lone surrogate still gives well-formed value text.
const tag = (name: string, scope: number | null) => `${JSON.stringify(name)}@${scope}`;
const nameish = fc.oneof(
  hostileText.map((s) => s.slice(0, 40)),
  fc.constantFrom(
    'CON',
    'aux.md',
    'x__1',
    '..',
    '.x',
    'a/b',
    'a\\b',
    ' x',
    'x ',
    'caf\u00e9',
    'cafe\u0301',
    'p\u0430ypal',
    'paypal',
    'a\u200Db',
    'Result',
    'result',
    '🦀',
    "'; --",
    '$$',
    'x.md',
    'x__',
  ),
);

async function withBackend(fn: (b: Backend, run: string, bindingsDir: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'prose-prop-names-'));
  const env: BackendEnv = {
    projectDir: join(root, 'project'),
    homeDir: join(root, 'home'),
    decisions: DEFAULT_DECISIONS,
    storageKey: root,
  };
  mkdirSync(env.projectDir);
  mkdirSync(env.homeDir);
  const b = await filesystemFactory.open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    await fn(b, run, join(env.projectDir, '.prose', 'runs', run, 'bindings'));
  } finally {
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
}

test('refused names write nothing; accepted names round-trip at root and in a frame', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(nameish, { maxLength: 8 }), async (names) => {
      await withBackend(async (b, run, dir) => {
        const { executionId } = await b.call('enterFrame', { run, block: 'blk' }, VM);
        const valid = names.filter(isValid);
        for (const name of names) {
          for (const scope of [null, executionId]) {
            const actor = { role: 'subagent' as const, binding: name, executionId: scope };
            try {
              await b.call('bind', { run, name, kind: 'let', value: tag(name, scope), executionId: scope }, actor);
              assert.ok(isValid(name), `${JSON.stringify(name)} was accepted`);
            } catch (err) {
              assert.is(
                (err as { code?: string }).code,
                'E_INVALID_NAME',
                `${JSON.stringify(name)}: ${(err as Error).message}`,
              );
              assert.not.ok(isValid(name), `${JSON.stringify(name)} is valid but was refused`);
            }
          }
        }
        assert.is(
          readdirSync(dir).length,
          valid.length * 2,
          'one file per accepted binding and scope, none for refused ones',
        );
        for (const name of valid) {
          assert.is((await b.call('resolve', { run, name }, VM)).value, tag(name, null));
          const scoped = await b.call('resolve', { run, name, executionId }, VM);
          assert.equal([scoped.name, scoped.value, scoped.executionId], [name, tag(name, executionId), executionId]);
        }
        const listed = (await b.call('listBindings', { run }, VM)).bindings
          .map((x) => `${x.name}@${x.executionId}`)
          .sort();
        assert.equal(listed, valid.flatMap((n) => [`${n}@null`, `${n}@${executionId}`]).sort());
      });
    }),
    { numRuns: 60 },
  );
});

test('names holding U+2028 or U+2029 are refused and the run stays readable', async () => {
  await withBackend(async (b, run) => {
    for (const name of ['a\u2028b', 'a\u2029b']) {
      await b
        .call('bind', { run, name, kind: 'let', value: 'v' }, { role: 'subagent', binding: name, executionId: null })
        .then(
          () => assert.unreachable(`bind accepted ${JSON.stringify(name)}`),
          (err: { code?: string }) => assert.is(err.code, 'E_INVALID_NAME'),
        );
    }
    assert.equal((await b.call('listBindings', { run }, VM)).bindings, []);
  });
});

test.run();
