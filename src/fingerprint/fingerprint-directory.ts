import { createHash } from 'node:crypto';
import { addressFromHex, type ContentAddress } from '../canon/content-address.ts';
import { artifactChunks, planTree, type StreamStats, type TreeOptions } from './artifact-stream.ts';
import { artifactChunksAsync } from './artifact-stream-async.ts';
import { fsTreeReader } from './fs-tree-reader.ts';
import {
  artifactChunksParallel,
  PARALLEL_FROM_FILES,
  PARALLEL_WARM_FROM_FILES,
  type ParallelOptions,
  type ParallelStats,
} from './parallel-tree-read.ts';
import type { Planned } from './artifact-stage.ts';
import { startFramesJob } from './frame-ring.ts';
import { readyReaderThreads } from './reader-threads.ts';
import { spareCore } from './spare-core.ts';
import type { TreeReader } from './tree-reader.ts';

export interface DirectoryFingerprint extends StreamStats {
  address: ContentAddress;
  /** Present when the tree was read by several threads (`artifactChunksParallel`). */
  parallel?: ParallelStats;
}

export interface FingerprintOptions extends TreeOptions {
  reader?: TreeReader;
  /**
   * The async forms only: read a tree of many files on several threads. 'auto' (default): for the fs reader,
   * when a core is free (`spareCore`: the other processes leave one), from
   * `PARALLEL_FROM_FILES` files up, or from `PARALLEL_WARM_FROM_FILES` once the reader threads have started, and
   * a large file's rest read on the thread pool only when a core is free; true forces the reader threads (fs
   * reader only); false never starts them (a large file's rest is still read on the thread pool).
   */
  parallel?: boolean | 'auto';
  parallelOptions?: ParallelOptions;
}

/**
 * The OPWM1 content address of a directory (every regular file under it except a root `.version`) or of one
 * file (an artifact holding that file under its base name). Hashes as it reads; never holds the artifact.
 * Sync, for callers that cannot await; `fingerprintDirectoryAsync` is faster when files are large.
 */
export function fingerprintDirectory(path: string, opts: FingerprintOptions = {}): DirectoryFingerprint {
  const reader = opts.reader ?? fsTreeReader;
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  for (const chunk of artifactChunks(reader, planTree(reader, path, opts), stats, opts.bufferBytes)) hash.update(chunk);
  return { address: addressFromHex(hash.digest('hex')), ...stats };
}

/**
 * `fingerprintDirectory`, faster: from the first large file a reader thread reads the tree ahead into a ring while
 * this thread hashes (`frame-ring.ts`; a quiet 2-core machine: 0.92x of read + hash on 1 x 100 MiB, against 1.02x
 * sync), or, before that thread has started, a large file's next part is read on the thread pool; a tree of many
 * files is read by reader threads as well as this one, in batches hashed in path order (`artifactChunksParallel`).
 * The same address either way, and bounded memory (two buffers; plus the ring, 2 MiB, or the batches' cap, 4 MiB by
 * default). All need a free core to gain: on a saturated machine the thread hops can cost what the overlap saves.
 */
export async function fingerprintDirectoryAsync(
  path: string,
  opts: FingerprintOptions = {},
): Promise<DirectoryFingerprint> {
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  const source = chunkSource(path, opts, stats);
  for await (const chunk of source.chunks) hash.update(chunk);
  return { address: addressFromHex(hash.digest('hex')), ...stats, ...source.extra };
}

/** Fewer files pay for the reader threads once they have started (the first parallel tree starts them). */
function autoFromFiles(): number {
  return readyReaderThreads() > 0 ? PARALLEL_WARM_FROM_FILES : PARALLEL_FROM_FILES;
}

/**
 * The async stream for a tree: read by several threads when it has many files (and the reader is the real file
 * system, which the other threads open themselves), else double-buffered on this thread.
 */
function chunkSource(
  path: string,
  opts: FingerprintOptions,
  stats: StreamStats,
): { chunks: AsyncIterable<Uint8Array>; extra: { parallel?: ParallelStats } } {
  const reader = opts.reader ?? fsTreeReader;
  const planned: Planned[] = planTree(reader, path, opts);
  const mode = opts.parallel ?? 'auto';
  const parallel =
    reader === fsTreeReader && (mode === true || (mode === 'auto' && planned.length >= autoFromFiles() && spareCore()));
  // auto, real files: a large file's rest is read on the thread pool only when a core is free for that thread
  // (asked at the first one). Another reader's async reads may cost this machine nothing: always overlapped.
  const auto = mode === 'auto' && reader === fsTreeReader;
  const overlap = auto ? spareCore : () => true;
  // auto, real files: the large file and the rest of the tree read ahead by a reader thread (which opens them).
  const ahead = auto ? startFramesJob : undefined;
  if (!parallel)
    return { chunks: artifactChunksAsync(reader, planned, stats, opts.bufferBytes, overlap, ahead), extra: {} };
  const ps: ParallelStats = { workers: 0, capBytes: 0, batches: 0, workerBatches: 0, stolen: 0 };
  const chunks = artifactChunksParallel(
    reader,
    planned,
    stats,
    { bufferBytes: opts.bufferBytes, ...opts.parallelOptions },
    ps,
  );
  return { chunks, extra: { parallel: ps } };
}

/** A byte sink: a Node Writable (backpressure honoured through `drain`) or anything with a `write`. */
export interface ByteSink {
  write(chunk: Uint8Array): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * Writes the OPWM1 bytes of a directory (or file) to `sink` and returns its fingerprint. Each chunk is copied
 * before it is handed over (a Writable keeps queued chunks), and a full sink is awaited, so memory stays bounded.
 */
export async function serializeDirectoryTo(
  path: string,
  sink: ByteSink,
  opts: FingerprintOptions = {},
): Promise<DirectoryFingerprint> {
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  const source = chunkSource(path, opts, stats);
  for await (const chunk of source.chunks) {
    hash.update(chunk);
    const ok = sink.write(Buffer.from(chunk));
    if (ok === false && sink.once) await new Promise<void>((resolve) => sink.once!('drain', resolve));
  }
  return { address: addressFromHex(hash.digest('hex')), ...stats, ...source.extra };
}
