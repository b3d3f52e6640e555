import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { listTree, tempEnv } from '../../helpers/temp-env.ts';

const VM = { role: 'vm' } as const;
const BAD = [
  '',
  '../escape',
  'a/b',
  'a\\b',
  'nul\u0000x',
  '..',
  '.hidden',
  'x'.repeat(201),
  'CON',
  'cafe\u0301',
  'rtl\u202eexe',
  'name__12',
  'lone\ud800',
];

test('names that could escape or collide are refused with E_INVALID_NAME and nothing is written', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  const { run } = await b.call('createRun', { program: 'x' }, VM);
  const before = listTree(env.root);
  for (const name of BAD) {
    await b.call('bind', { run, name, kind: 'input', value: 'v' }, VM).then(
      () => assert.unreachable(`bind accepted ${JSON.stringify(name)}`),
      (e: ProseError) => assert.is(e.code, 'E_INVALID_NAME', JSON.stringify(name)),
    );
    // "__digits" is refused only for bindings: it is how scoped binding files are named.
    if (name === 'name__12') continue;
    await b.call('writeMemory', { agent: name, scope: 'project', memory: 'm' }, { role: 'subagent', agent: name }).then(
      () => assert.unreachable(`writeMemory accepted ${JSON.stringify(name)}`),
      (e: ProseError) => assert.is(e.code, 'E_INVALID_NAME'),
    );
  }
  assert.equal(listTree(env.root), before);
  await b.close();
  env.cleanup();
});

test('a run reference that climbs out of .prose/runs is not found, not followed', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  for (const run of [
    '../../etc',
    '20260115-143052-a7b3c9/../../x',
    '20260115-143052-a7b3c9/imports/../../..',
    '/tmp',
  ]) {
    await b.call('resolve', { run, name: 'x' }, VM).then(
      () => assert.unreachable(run),
      (e: ProseError) => assert.is(e.code, 'E_NOT_FOUND', run),
    );
  }
  assert.equal(listTree(env.root), []);
  await b.close();
  env.cleanup();
});

test('a corrupted binding file is E_CORRUPT naming the file and line', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  const { run } = await b.call('createRun', { program: 'x' }, VM);
  await b.call('bind', { run, name: 'x', kind: 'input', value: 'v' }, VM);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    `${env.projectDir}/.prose/runs/${run}/bindings/x.md`,
    '# x\n\nkind: let\n\nsource:\n```prose\n```\n\nno separator here\n',
  );
  await b.call('resolve', { run, name: 'x' }, VM).then(
    () => assert.unreachable(),
    (e: ProseError) => {
      assert.is(e.code, 'E_CORRUPT');
      assert.is(e.location?.file, `.prose/runs/${run}/bindings/x.md`);
      assert.is(e.location?.line, 9);
    },
  );
  await b.close();
  env.cleanup();
});

test.run();
