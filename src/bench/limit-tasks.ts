import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/**
 * The two halves of the "limit" a fingerprint is compared with: reading every file (a sync walk with one
 * reused buffer, no stat, no sort, no hash: the I/O floor) and hashing the same bytes already in memory (the
 * CPU floor). A fingerprint does both, so walk + hash is what it cannot beat on one thread.
 */
export function readOnlyWalk(dir: string, buffer: Uint8Array): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      bytes += readOnlyWalk(path, buffer);
      continue;
    }
    const fd = openSync(path, 'r');
    try {
      for (
        let n = readSync(fd, buffer, 0, buffer.length, null);
        n > 0;
        n = readSync(fd, buffer, 0, buffer.length, null)
      )
        bytes += n;
    } finally {
      closeSync(fd);
    }
  }
  return bytes;
}

/** Every file's bytes in memory, for the raw-hash task (loaded once, outside the timed loop). */
export function loadTree(dir: string): Buffer[] {
  const out: Buffer[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...loadTree(path));
    else out.push(readFileSync(path));
  }
  return out;
}

/** One sha256 over data already in memory (node:crypto, OpenSSL with SHA-NI where the CPU has it). */
export function rawHash(buffers: readonly Buffer[]): string {
  const h = createHash('sha256');
  for (const b of buffers) h.update(b);
  return h.digest('hex');
}
