import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withFileLock, withSharedLock } from '../../../src/sqlite/index.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { startTimeOf } from '../../../src/io/file-lock.ts';
import { tempEnv } from './helpers.ts';

// Our parent process is alive and is not us: marks and locks in its name stand for another process's.
const other = process.ppid;

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

async function conflict(p: Promise<unknown>): Promise<ProseError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, ProseError);
    return err as ProseError;
  }
  throw new Error('expected E_CONFLICT');
}

test('a writer waits for a reader of another process that is inside ("1"), and goes in once it is done ("0")', async () => {
  const env = tempEnv('marks-writer');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    const mark = `${lock}.reader-${other}-1`;
    writeFileSync(mark, '1');
    const err = await conflict(withFileLock(lock, () => 'ran', { timeoutMs: 200 }));
    assert.is(err.code, 'E_CONFLICT');
    assert.match(err.message, new RegExp(`reader pid ${other}`));
    assert.not.ok(existsSync(lock), 'the writer gave the lock back');
    writeFileSync(mark, '0');
    assert.is(await withFileLock(lock, () => 'ran', { timeoutMs: 200 }), 'ran');
  } finally {
    env.done();
  }
});

test('a writer removes the marks of dead readers and does not wait for them', async () => {
  const env = tempEnv('marks-dead');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    writeFileSync(`${lock}.reader-${deadPid()}-3`, '1');
    assert.is(await withFileLock(lock, () => 'ran', { timeoutMs: 500 }), 'ran');
    assert.equal(readdirSync(env.dir), []);
  } finally {
    env.done();
  }
});

test("a mark whose live pid started at another time than the mark says is a dead reader's: removed, not waited for", async () => {
  const start = startTimeOf(other);
  if (start === undefined) {
    assert.is(startTimeOf(process.pid), undefined, 'no /proc: the pid alone decides (the tests above)');
    return;
  }
  const env = tempEnv('marks-reused-pid');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    const mark = `${lock}.reader-${other}-4`;
    writeFileSync(mark, `1\n${Number(start) + 1}\n`);
    assert.is(await withFileLock(lock, () => 'ran', { timeoutMs: 500 }), 'ran');
    assert.not.ok(existsSync(mark), 'removed');
    // With its owner's true start it is a live reader's: waited for.
    writeFileSync(mark, `1\n${start}\n`);
    assert.is((await conflict(withFileLock(lock, () => 'ran', { timeoutMs: 200 }))).code, 'E_CONFLICT');
    assert.ok(existsSync(mark));
  } finally {
    env.done();
  }
});

test('a reader waits while another process writes, saying "2" in its mark meanwhile, and leaves no mark behind', async () => {
  const env = tempEnv('marks-reader');
  try {
    mkdirSync(env.dir, { recursive: true });
    const lock = join(env.dir, 'state.db.lock');
    writeFileSync(lock, `${other}\n${hostname()}\nnonce\n`);
    let waiting = '';
    const reading = withSharedLock(lock, () => 'read', { timeoutMs: 300 });
    await new Promise((r) => setTimeout(r, 100));
    for (const f of readdirSync(env.dir)) if (f.includes('.reader-')) waiting = readFileSync(join(env.dir, f), 'utf8');
    // The state byte first, then when its owner started (so a writer can tell a reused pid).
    assert.is(waiting, `2\n${startTimeOf(process.pid) ?? ''}\n`, 'the waiting reader says so');
    assert.is((await conflict(reading)).code, 'E_CONFLICT');
    assert.equal(readdirSync(env.dir), ['state.db.lock'], 'a live writer lock is never broken by a reader');
    writeFileSync(lock, `${deadPid()}\n${hostname()}\nnonce\n`);
    assert.is(await withSharedLock(lock, () => 'read', { timeoutMs: 2000 }), 'read', "a dead writer's lock is broken");
    assert.equal(readdirSync(env.dir), []);
  } finally {
    env.done();
  }
});

test.run();
