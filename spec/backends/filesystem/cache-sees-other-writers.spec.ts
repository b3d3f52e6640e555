import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemBackend, filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { FsStore } from '../../../src/backends/filesystem/fs-store.ts';
import { RACY_MS } from '../../../src/backends/filesystem/file-memo.ts';
import type { Backend } from '../../../src/core/backend.ts';
import { statement, trusting } from '../../helpers/trusting-store.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: the filesystem store keeps each run's state.md as last read or written (state-md-file.ts) and each
// binding file's parse (binding-files.ts), checked by stat before every use. Here a long-lived backend makes two
// calls with another process's change between them, and the second call must see it; the change comes straight
// after our own write, inside the clock tick a stat alone could not tell apart. The same scenarios against a store
// whose cache never checks show that they catch one.

const VM = { role: 'vm' } as const;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A store that keeps the first log it read and only adds its own appends: a cache that does not check. */
const TrustingStore = trusting(FsStore);

type Env = ReturnType<typeof tempEnv>;

async function open(env: Env, trusting: boolean): Promise<Backend> {
  if (!trusting) return filesystemFactory.open(env);
  return filesystemBackend(new TrustingStore(env.projectDir, env.homeDir, env.decisions), env.decisions);
}

function runFixture(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const stateMd = (env: Env, run: string) => join(env.projectDir, '.prose', 'runs', run, 'state.md');

/** Each scenario: another process changes the run (statement 1 completed); the position the next resume reports. */
const SCENARIOS: Record<string, { change: (e: Env, run: string) => Promise<void>; sees: object }> = {
  'another process of ours records statement 2 (executing)': {
    change: async (e, run) => {
      const r = await runFixture('event-writer.ts', [e.projectDir, e.homeDir, run, '2', 'executing']);
      assert.is(r.code, 0, r.stderr);
    },
    sees: { index: 2, text: 'step 2', status: 'executing' },
  },
  'another process edits state.md in place, same size and inode: statement 1 back to executing': {
    change: async (e, run) => {
      const file = stateMd(e, run);
      const before = statSync(file);
      const r = await runFixture('edit-in-place.ts', [file, '"status":"completed"', '"status":"executing"']);
      assert.is(r.code, 0, r.stderr);
      const after = statSync(file);
      assert.equal([after.ino, after.size], [before.ino, before.size], 'the edit keeps the inode and the size');
    },
    sees: { index: 1, text: 'step 1', status: 'executing' },
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  for (const trusting of [false, true]) {
    const title = trusting ? `a cache that does not check misses it: ${name}` : `a long-lived backend sees it: ${name}`;
    test(title, async () => {
      const env = tempEnv();
      const backend = await open(env, trusting);
      try {
        const { run } = await backend.call('createRun', { program: 'session "a"\nsession "b"\n' }, VM);
        await backend.call('recordEvent', { run, event: statement(1, 'completed') }, VM);
        const warm = (await backend.call('resume', { run }, VM)).position;
        assert.equal(warm, { index: 1, text: 'step 1', status: 'completed' });
        await s.change(env, run);
        const position = (await backend.call('resume', { run }, VM)).position;
        if (trusting) assert.not.equal(position, s.sees);
        else assert.equal(position, s.sees);
      } finally {
        await backend.close();
        env.cleanup();
      }
    });
  }
}

test('a binding file another process rewrites in place (same size) is listed with its new kind', async () => {
  const env = tempEnv();
  const backend = await filesystemFactory.open(env);
  try {
    const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
    await backend.call('bind', { run, name: 'topic', kind: 'input', value: 'tides' }, VM);
    await sleep(RACY_MS + 50); // settled: the listing memoizes the parsed file
    const kinds = async () => (await backend.call('resume', { run }, VM)).bindings.map((b) => b.kind);
    assert.equal(await kinds(), ['input']);
    const file = join(env.projectDir, '.prose', 'runs', run, 'bindings', 'topic.md');
    const r = await runFixture('edit-in-place.ts', [file, 'kind: input', 'kind: const']);
    assert.is(r.code, 0, r.stderr);
    assert.equal(await kinds(), ['const']);
    assert.match(readFileSync(file, 'utf8'), /kind: const/);
  } finally {
    await backend.close();
    env.cleanup();
  }
});

test.run();
