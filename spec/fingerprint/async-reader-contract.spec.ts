import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit } from '../../src/canon/index.ts';
import {
  artifactChunksAsync,
  ASYNC_FROM_BYTES,
  fingerprintDirectoryAsync,
  planTree,
  type TreeReader,
} from '../../src/fingerprint/index.ts';
import { poolMemory } from '../../src/fingerprint/artifact-stream-async.ts';

// A stream that found the pool a loss makes the next ones read on this thread for a while: each test starts clean.
test.before.each(() => poolMemory.forget());

interface Log {
  closedWhileReading: number;
  reads: number;
  open: number;
}

/**
 * An in-memory tree whose access reads asynchronously (settling on a later tick, like the thread pool), and can
 * lie about a file: `grow` appends bytes after the size was asked, `shrink` drops them, `fail` rejects a read.
 */
const fake = (
  files: Record<string, Uint8Array>,
  log: Log,
  trick: { grow?: string; shrink?: string; fail?: string; delayMs?: number } = {},
): TreeReader => {
  const handles = new Map<number, { path: string; off: number; sized: boolean; pending: boolean }>();
  let next = 3;
  const bytesOf = (h: { path: string; sized: boolean }): Uint8Array => {
    const b = files[h.path]!;
    if (!h.sized) return b;
    if (h.path === trick.grow) return new Uint8Array(b.length + 10).fill(7);
    if (h.path === trick.shrink) return b.subarray(0, b.length - 10);
    return b;
  };
  const readInto = (fd: number, buf: Uint8Array, at: number, max: number): number => {
    const h = handles.get(fd)!;
    const src = bytesOf(h);
    const n = Math.max(0, Math.min(max, src.length - h.off));
    buf.set(src.subarray(h.off, h.off + n), at);
    h.off += n;
    return n;
  };
  return {
    kind: (p) => (p === '/root' ? 'directory' : 'missing'),
    list: () => Object.keys(files).map((path) => ({ path, size: -1, ref: path })),
    single: () => {
      throw new Error('unused');
    },
    chunks: () => {
      throw new Error('unused: access is offered');
    },
    access: {
      open: (file) => {
        handles.set(next, { path: file.ref, off: 0, sized: false, pending: false });
        log.open++;
        return next++;
      },
      readInto,
      readIntoAsync: (fd, buf, at, max) => {
        const h = handles.get(fd)!;
        h.pending = true;
        log.reads++;
        const settle = (resolve: (n: number) => void, reject: (e: Error) => void) => (): void => {
          h.pending = false;
          if (h.path === trick.fail) reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
          else resolve(readInto(fd, buf, at, max));
        };
        return new Promise((resolve, reject) =>
          trick.delayMs ? setTimeout(settle(resolve, reject), trick.delayMs) : setImmediate(settle(resolve, reject)),
        );
      },
      size: (fd) => {
        const h = handles.get(fd)!;
        h.sized = true;
        return files[h.path]!.length;
      },
      close: (fd) => {
        if (handles.get(fd)!.pending) log.closedWhileReading++;
        handles.delete(fd);
        log.open--;
      },
    },
  };
};

const big = (n: number, v: number): Uint8Array => new Uint8Array(n).map((_, i) => (i * 31 + v) & 0xff);
const newLog = (): Log => ({ closedWhileReading: 0, reads: 0, open: 0 });

async function rejectsCode(p: Promise<unknown>, code: string): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.is((err as { code?: string }).code, code, (err as Error).message);
    return;
  }
  assert.unreachable(`expected ${code}`);
}

test('a reader with readIntoAsync streams large files through it and gets the same address', async () => {
  const files = {
    'a.bin': big(5 * ASYNC_FROM_BYTES + 3, 1),
    'b.md': big(10, 2),
    'c.bin': big(2 * ASYNC_FROM_BYTES, 3),
  };
  const log = newLog();
  const fp = await fingerprintDirectoryAsync('/root', { reader: fake(files, log), bufferBytes: ASYNC_FROM_BYTES * 2 });
  assert.is(fp.address, commit(files).address);
  assert.ok(log.reads > 0, 'no async read was made');
  assert.is(log.open, 0, 'every handle is closed');
});

test('with no core free for the pool, large files are read on this thread: same bytes, asked once, never for small files', async () => {
  const files = {
    'a.bin': big(5 * ASYNC_FROM_BYTES + 3, 1),
    'b.md': big(10, 2),
    'c.bin': big(2 * ASYNC_FROM_BYTES, 3),
  };
  const log = newLog();
  const reader = fake(files, log);
  let asked = 0;
  const overlap = (): boolean => (asked++, false);
  const stats = { files: 0, bytes: 0 };
  const chunks: Uint8Array[] = [];
  for await (const c of artifactChunksAsync(reader, planTree(reader, '/root'), stats, ASYNC_FROM_BYTES * 2, overlap))
    chunks.push(c.slice());
  assert.equal(Buffer.concat(chunks), Buffer.from(commit(files).bytes));
  assert.is(log.reads, 0, 'no async read');
  assert.is(asked, 1, 'asked at the first large file only');
  assert.is(log.open, 0, 'every handle is closed');
  const small = fake({ 'b.md': big(10, 2) }, newLog());
  for await (const _ of artifactChunksAsync(small, planTree(small, '/root'), stats, ASYNC_FROM_BYTES, overlap));
  assert.is(asked, 1, 'a tree of small files never asks');
});

/** The async stream's bytes in 64 KiB parts, each chunk handed to `consume` before the next is asked for. */
async function streamed(reader: TreeReader, consume?: () => Promise<unknown>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const stats = { files: 0, bytes: 0 };
  for await (const c of artifactChunksAsync(reader, planTree(reader, '/root'), stats, ASYNC_FROM_BYTES)) {
    chunks.push(c.slice());
    if (consume) await consume();
  }
  return Buffer.concat(chunks);
}

test('pool reads this thread keeps waiting for are given up: the rest of the stream is read here, same bytes', async () => {
  const files = { 'a.bin': big(30 * ASYNC_FROM_BYTES + 5, 1), 'b.bin': big(4 * ASYNC_FROM_BYTES, 2) };
  const log = newLog();
  const reader = fake(files, log, { delayMs: 2 });
  assert.equal(await streamed(reader), Buffer.from(commit(files).bytes)); // an instant consumer: all is waiting
  assert.is(log.reads, 8, 'eight parts probe the pool, then every read is made here');
  assert.is(log.open, 0);
  const again = newLog();
  const next = fake(files, again, { delayMs: 2 });
  await streamed(next);
  assert.is(again.reads, 0, 'the next stream, soon after, reads here from its start');
});

test('pool reads that are ready when the part before is hashed stay on the pool', async () => {
  const files = { 'a.bin': big(12 * ASYNC_FROM_BYTES, 1) };
  const log = newLog();
  const reader = fake(files, log);
  // Hashing takes longer than the read.
  const slow = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 3));
  assert.equal(await streamed(reader, slow), Buffer.from(commit(files).bytes));
  assert.is(log.reads, 12, 'every part past the first was read on the pool (the last read finds the end)');
});

test('a file that grows or shrinks during an async read is E_IO', async () => {
  const files = { 'a.bin': big(3 * ASYNC_FROM_BYTES, 1) };
  await rejectsCode(fingerprintDirectoryAsync('/root', { reader: fake(files, newLog(), { grow: 'a.bin' }) }), 'E_IO');
  await rejectsCode(fingerprintDirectoryAsync('/root', { reader: fake(files, newLog(), { shrink: 'a.bin' }) }), 'E_IO');
});

// Regression guard: the read is issued before the chunk is handed on, so a failure must reach the caller as a
// rejection, never as an unhandled rejection (which ends the process) while a slow consumer holds the chunk.
test('a failing async read rejects the stream with the reader error, even under a slow consumer', async () => {
  const log = newLog();
  const reader = fake({ 'a.bin': big(3 * ASYNC_FROM_BYTES, 1) }, log, { fail: 'a.bin' });
  await rejectsCode(fingerprintDirectoryAsync('/root', { reader }), 'EIO');
  const slow = async (): Promise<void> => {
    for await (const _ of artifactChunksAsync(reader, planTree(reader, '/root'), { files: 0, bytes: 0 })) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // like a sink waiting for 'drain'
    }
  };
  await rejectsCode(slow(), 'EIO');
  assert.is(log.open, 0);
});

test('a consumer that stops early waits for the read in flight before the file is closed', async () => {
  const log = newLog();
  const reader = fake({ 'a.bin': big(8 * ASYNC_FROM_BYTES, 1) }, log);
  const stats = { files: 0, bytes: 0 };
  for await (const chunk of artifactChunksAsync(reader, planTree(reader, '/root'), stats, ASYNC_FROM_BYTES)) {
    assert.ok(chunk.length > 0);
    break; // a read into the spare buffer is in flight now
  }
  assert.is(log.closedWhileReading, 0);
  assert.is(log.open, 0);
});

test.run();
