// One writer at a time across processes: a lock directory (mkdir is atomic) holding the owner's pid. A lock whose
// owner died (killed mid-call) is taken over, so a crash never wedges the storage.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function ownerIsGone(lock) {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // no pid file yet
  }
  // Created but not yet stamped, or its owner was killed while stamping (an empty pid file): only stale if it has
  // been like that for a while. Never process.kill(0, 0): that asks about our own process group and always succeeds.
  if (!Number.isSafeInteger(pid) || pid <= 0) return age(lock) > 2000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}

const age = (path) => {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Removes the lock when its owner is gone. Breakers take turns (a second mkdir lock) and look at the owner again
 * inside their turn: a lock dropped and taken by a live process in between is never removed by mistake.
 */
function breakIfStale(lock) {
  const turn = `${lock}.break`;
  try {
    mkdirSync(turn);
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    if (age(turn) > 5000) rmSync(turn, { recursive: true, force: true });
    return false;
  }
  try {
    if (!ownerIsGone(lock)) return false;
    rmSync(lock, { recursive: true, force: true });
    return true;
  } finally {
    rmSync(turn, { recursive: true, force: true });
  }
}

export async function withLock(dir, fn) {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (!breakIfStale(lock)) await sleep(Math.min(20, 1 + attempt));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
