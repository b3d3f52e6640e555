import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { FileMemo, RACY_MS } from '../../../src/backends/filesystem/file-memo.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

const VM = { role: 'vm' } as const;

test('a memoized file is read once while unchanged, again once rewritten, and forgotten once gone', async () => {
  const env = tempEnv();
  const file = join(env.root, 'f.md');
  writeFileSync(file, 'one');
  const memo = new FileMemo<string>();
  let reads = 0;
  const read = () => {
    reads += 1;
    return readFileSync(file, 'utf8');
  };
  assert.is(memo.get(file, read), 'one');
  assert.is(memo.get(file, read), 'one');
  assert.is(reads, 2, 'a file younger than RACY_MS is read every time');
  await sleep(RACY_MS + 50);
  memo.get(file, read);
  assert.is(memo.get(file, read), 'one');
  assert.is(reads, 3, 'a settled file is read once');
  writeFileSync(file, 'two'); // same size, same inode: the times differ
  assert.is(memo.get(file, read), 'two');
  env.cleanup();
  assert.is(memo.get(file, read), undefined);
});

test('state.md shows a binding file rewritten in place by a subagent, even after the index memoized it', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  const { run } = await b.call('createRun', { program: 'x' }, VM);
  await b.call('bind', { run, name: 'draft', kind: 'let', value: 'v1' }, { role: 'subagent', binding: 'draft' });
  const runDir = join(env.projectDir, '.prose', 'runs', run);
  await sleep(RACY_MS + 50);
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 1, text: 'let draft = session "a"', status: 'completed' } },
    VM,
  );
  assert.match(readFileSync(join(runDir, 'state.md'), 'utf8'), /\| draft \| let \|/);
  // What a subagent following the instructions does: write the file itself, in place.
  const bindingFile = join(runDir, 'bindings', 'draft.md');
  writeFileSync(bindingFile, readFileSync(bindingFile, 'utf8').replace('kind: let', 'kind: const'));
  await b.call('recordEvent', { run, event: { type: 'statement', index: 2, text: 'x', status: 'completed' } }, VM);
  assert.match(readFileSync(join(runDir, 'state.md'), 'utf8'), /\| draft \| const \|/);
  await b.close();
  env.cleanup();
});

test.run();
