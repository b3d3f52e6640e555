import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import { VM } from '../../src/core/actor.ts';
import type { Backend } from '../../src/core/backend.ts';
import { sqliteFactory } from '../../src/backends/sqlite/index.ts';
import { assertCorrupt, expectBug, freshEnv, sub } from './_env.ts';

// A state.db damaged on disk (sqlite.md .prose/runs/{id}/state.db): reopening and reading is a typed E_CORRUPT
// naming the file, never a crash, a hang or an empty run.

test('a corrupted state.db (garbage, cut in half, bad magic, a scrambled page) is E_CORRUPT naming state.db', async () => {
  const env = freshEnv();
  let b: Backend | undefined = await sqliteFactory.open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    await b.call('bind', { run, name: 'x', kind: 'let', value: 'v' }, sub('x'));
    await b.close();
    b = undefined;
    const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
    const good = readFileSync(db);
    const scrambled = Buffer.from(good);
    for (let i = 4096; i < Math.min(scrambled.length, 8192); i++) scrambled[i]! ^= 0xa5;
    const variants: [string, Buffer][] = [
      ['garbage', Buffer.alloc(good.length, 0x5a)],
      ['cut in half', good.subarray(0, good.length >> 1)],
      ['bad magic', Buffer.concat([Buffer.from('SQLite format 4\0'), good.subarray(16)])],
      ['a scrambled page', scrambled],
    ];
    for (const [what, bytes] of variants) {
      writeFileSync(db, bytes);
      await assertCorrupt(
        what,
        async () => {
          const r = await sqliteFactory.open(env);
          try {
            return await r.call('resolve', { run, name: 'x' }, VM);
          } finally {
            await r.close().catch(() => undefined);
          }
        },
        'state.db',
      );
    }
    writeFileSync(db, Buffer.alloc(0));
    await expectBug('a 0-byte state.db answers E_NOT_FOUND (the run silently disappears) instead of E_CORRUPT', () =>
      assertCorrupt(
        'empty file',
        async () => {
          const r = await sqliteFactory.open(env);
          try {
            return await r.call('getRun', { run }, VM);
          } finally {
            await r.close().catch(() => undefined);
          }
        },
        'state.db',
      ),
    );
  } finally {
    await b?.close();
    env.cleanup();
  }
});

test.run();
