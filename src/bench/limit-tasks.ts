import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

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

/** Every file path under `dir` (the parallel limit's readers split them). */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

/** A reader thread of the parallel limit: on each message, reads its share of the files (sync, one buffer). */
const READER_SOURCE = `
const { parentPort, workerData: d } = require('node:worker_threads');
const fs = require('node:fs');
const buf = new Uint8Array(1 << 20);
parentPort.on('message', () => {
  let bytes = 0;
  for (const p of d.files) {
    const fd = fs.openSync(p, 'r');
    try {
      for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) bytes += n;
    } finally {
      fs.closeSync(fd);
    }
  }
  parentPort.postMessage(bytes);
});
parentPort.postMessage(-1);
`;

export interface ParallelLimit {
  threads: number;
  /** One sample: every reader reads its share while this thread hashes the bytes already in memory. */
  run(buffers: readonly Buffer[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The "parallel limit": all cores reading, one hashing. `threads` reader threads, started before any timing (a
 * floor leaves out their start), each read-only over every `threads`-th file; meanwhile this thread runs the raw
 * hash. A sample ends when all have finished: no ordering and no hand-over of bytes, so nothing that reads and
 * hashes the same tree in path order can beat it.
 */
export async function startParallelLimit(dir: string, threads: number): Promise<ParallelLimit> {
  const files = listFiles(dir);
  const workers = Array.from(
    { length: threads },
    (_, t) =>
      new Worker(READER_SOURCE, { eval: true, workerData: { files: files.filter((_, i) => i % threads === t) } }),
  );
  const next = (w: Worker): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        w.off('message', onMessage);
        reject(err);
      };
      const onMessage = (n: number): void => {
        w.off('error', onError);
        resolve(n);
      };
      w.once('message', onMessage);
      w.once('error', onError);
    });
  await Promise.all(workers.map(next));
  return {
    threads,
    async run(buffers) {
      const done = workers.map(next);
      for (const w of workers) w.postMessage(0);
      rawHash(buffers);
      await Promise.all(done);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
