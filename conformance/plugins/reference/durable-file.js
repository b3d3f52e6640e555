// Writes that survive a power cut, not only a killed process (decision crash-state-model): the temp file is fsynced
// before it is renamed over the name, the directory after, and a new directory is fsynced into its parent.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

function syncDir(dir) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** mkdir -p, each directory it creates made durable in its parent. */
export function mkdirDurable(dir) {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    syncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

/** Replaces `file` with `text` atomically and durably: temp file, fsync, rename, fsync of the directory. */
export function writeFileDurable(file, text) {
  mkdirDurable(dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  syncDir(dirname(file));
}
