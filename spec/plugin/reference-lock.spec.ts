import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the reference plugin is plain JavaScript without types
import { withLock } from '../../conformance/plugins/reference/lock.js';

// The crash area kills writers at any point, also between creating the lock and writing its pid. Such a lock must
// be taken over once it is old, not waited on forever (it wedged the module plugin's crash case: Number('') is 0,
// and process.kill(0, 0) asks about our own process group, so the dead owner looked alive).
for (const [what, pid] of [
  ['an empty pid file', ''],
  ['no pid file', undefined],
  ['a pid file that is not a number', 'x'],
] as const) {
  test(`a lock left with ${what} is taken over once stale`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prose-ref-lock-'));
    try {
      const lock = join(dir, 'lock');
      mkdirSync(lock);
      if (pid !== undefined) writeFileSync(join(lock, 'pid'), pid);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      // A lock that is never taken would wait forever: the race turns that into a failure.
      let timer: NodeJS.Timeout | undefined;
      const wedged = new Promise((resolve) => {
        timer = setTimeout(() => resolve('still waiting after 10 s'), 10_000);
      });
      const got = await Promise.race([withLock(dir, async () => 'taken'), wedged]);
      clearTimeout(timer);
      assert.is(got, 'taken');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
