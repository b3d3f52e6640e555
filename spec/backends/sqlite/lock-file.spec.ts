import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withFileLock } from '../../../src/sqlite/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { startTimeOf } from '../../../src/io/file-lock.ts';
import { tempEnv } from './helpers.ts';

/** A pid that surely ran and is surely gone: a child that has exited and been reaped. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('a lock left by a dead process is broken; the lock is released after use', async () => {
  const env = tempEnv('lock-stale');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    writeFileSync(lock, `${deadPid()}\n${hostname()}\nnonce\n`);
    const got = await withFileLock(lock, () => 'ran', { timeoutMs: 2000 });
    assert.is(got, 'ran');
    assert.not.ok(existsSync(lock), 'released');
    assert.not.ok(existsSync(`${lock}.break`), 'the break marker is gone too');
  } finally {
    env.done();
  }
});

test('a lock held by a live process makes a writer wait, then answer E_CONFLICT naming the holder', async () => {
  const env = tempEnv('lock-live');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    // Our parent process is alive and is not us: the lock is live.
    writeFileSync(lock, `${process.ppid}\n${hostname()}\nnonce\n`);
    const t0 = Date.now();
    try {
      await withFileLock(lock, () => 'ran', { timeoutMs: 300 });
      assert.unreachable('should time out');
    } catch (err) {
      assert.instance(err, ProseError);
      assert.is((err as ProseError).code, 'E_CONFLICT');
      assert.match((err as Error).message, new RegExp(`pid ${process.ppid}`));
    }
    assert.ok(Date.now() - t0 >= 300, 'it waited for the timeout');
    assert.ok(existsSync(lock), 'a live lock is never broken');
  } finally {
    env.done();
  }
});

test('a live pid that started after the lock was written is not its holder (a reused pid): the lock is broken', async () => {
  const parentStart = startTimeOf(process.ppid);
  if (parentStart === undefined) {
    // No /proc: no start is known, and the pid alone decides (the test above).
    assert.is(startTimeOf(process.pid), undefined);
    return;
  }
  const env = tempEnv('lock-reused-pid');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    // Our parent is alive, but the holder recorded an earlier start: a dead process whose pid came round again.
    writeFileSync(lock, `${process.ppid}\n${hostname()}\nnonce\n${Number(parentStart) - 1}\n`);
    assert.is(await withFileLock(lock, () => 'ran', { timeoutMs: 2000 }), 'ran');
    assert.not.ok(existsSync(lock), 'released');
    // The same pid with its true start holds the lock: it is waited for, never broken.
    writeFileSync(lock, `${process.ppid}\n${hostname()}\nnonce\n${parentStart}\n`);
    try {
      await withFileLock(lock, () => 'ran', { timeoutMs: 200 });
      assert.unreachable('should time out');
    } catch (err) {
      assert.is((err as ProseError).code, 'E_CONFLICT');
    }
    assert.ok(existsSync(lock), 'a live lock is never broken');
  } finally {
    env.done();
  }
});

test('a lock written by this process records its start beside its pid', async () => {
  const env = tempEnv('lock-own-start');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    const seen = await withFileLock(lock, () => readFileSync(lock, 'utf8'));
    const [pid, host, , start] = seen.split('\n');
    assert.is(Number(pid), process.pid);
    assert.is(host, hostname());
    assert.is(start, startTimeOf(process.pid) ?? '');
  } finally {
    env.done();
  }
});

test.run();
