import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemBackend } from '../../../src/backends/filesystem/index.ts';
import { FsCurrentStore } from '../../../src/backends/filesystem/current-store.ts';
import type { Backend } from '../../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { statement, trusting } from '../../helpers/trusting-store.ts';
import { openCurrent } from './_current-run.ts';

// Issue 35: the current edition's store keeps each run's execution.jsonl and vm.log.md as last read and reads only
// what was appended since (appended-bytes.ts). A long-lived backend makes two calls with another process's change
// between them, straight after our own write, and the second call must see it. The journal scenarios against a
// store whose cache never checks (the events-cached-unchecked mutant) show that they catch one.

const VM = { role: 'vm' } as const;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

function child(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.on('data', (d) => (stderr += d));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code, stderr }));
  });
}
const fixture = (script: string, args: string[]) => child(['--import', 'tsx', join(FIXTURES, script), ...args]);

type Dirs = { root: string; home: string };

/** A store that keeps the first log it read and only adds its own appends: a cache that does not check. */
const TrustingStore = trusting(FsCurrentStore);

async function withRun(trusts: boolean, body: (b: Backend, run: string, dirs: Dirs) => Promise<void>) {
  const base = mkdtempSync(join(tmpdir(), 'fs-current-caches-'));
  const dirs = { root: join(base, 'project'), home: join(base, 'home') };
  mkdirSync(dirs.root);
  mkdirSync(dirs.home);
  const b = trusts
    ? filesystemBackend(new TrustingStore(dirs.root, dirs.home, DEFAULT_DECISIONS), DEFAULT_DECISIONS)
    : await openCurrent(dirs.root, dirs.home, base);
  try {
    const { run } = await b.call('createRun', { program: 'session "a"\nsession "b"\n' }, VM);
    await body(b, run, dirs);
  } finally {
    await b.close();
    rmSync(base, { recursive: true, force: true });
  }
}

const runDir = (root: string, run: string) => join(root, 'runs', run);

/** Each scenario: another process changes the run after statement 1 completed; the position the next resume reports. */
const SCENARIOS: Record<string, { change: (dirs: Dirs, run: string) => Promise<void>; sees: object }> = {
  'another process of ours records statement 2 (executing)': {
    change: async ({ root, home }, run) => {
      const r = await fixture('current-event-writer.ts', [root, home, run, '2', 'executing']);
      assert.is(r.code, 0, r.stderr);
    },
    sees: { index: 2, text: 'step 2', status: 'executing' },
  },
  'another process edits execution.jsonl in place, same size and inode: statement 1 back to executing': {
    change: async ({ root }, run) => {
      const file = join(runDir(root, run), 'execution.jsonl');
      const before = statSync(file);
      const r = await fixture('edit-in-place.ts', [file, '"status":"completed"', '"status":"executing"']);
      assert.is(r.code, 0, r.stderr);
      assert.equal([statSync(file).ino, statSync(file).size], [before.ino, before.size]);
    },
    sees: { index: 1, text: 'step 1', status: 'executing' },
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  for (const trusting of [false, true]) {
    const title = trusting ? `a cache that does not check misses it: ${name}` : `a long-lived backend sees it: ${name}`;
    test(title, async () => {
      await withRun(trusting, async (b, run, dirs) => {
        await b.call('recordEvent', { run, event: statement(1, 'completed') }, VM);
        const warm = (await b.call('resume', { run }, VM)).position;
        assert.equal(warm, { index: 1, text: 'step 1', status: 'completed' });
        await s.change(dirs, run);
        const position = (await b.call('resume', { run }, VM)).position;
        if (trusting) assert.equal(position, warm, 'the stale position');
        else assert.equal(position, s.sees);
      });
    });
  }
}

test('another process appends a marker to vm.log.md: our next marker is numbered past it', async () => {
  await withRun(false, async (b, run, { root }) => {
    const commit = (node: string) =>
      b.call('commitWorldModel', { run, node, contract: 'c', files: { 'a.md': node } }, VM);
    await commit('first');
    const file = join(runDir(root, run), 'vm.log.md');
    const line = '2→ [input] topic ✓\n';
    const r = await child([
      '-e',
      `require('node:fs').appendFileSync(${JSON.stringify(file)}, ${JSON.stringify(line)})`,
    ]);
    assert.is(r.code, 0, r.stderr);
    await commit('second');
    assert.is(readFileSync(file, 'utf8').split('\n\n')[1], `1→ first ✓ rendered\n${line}3→ second ✓ rendered\n`);
  });
});

test.run();
