import { createHash } from 'node:crypto';
import { addressFromHex, type ContentAddress } from './content-address.ts';
import { artifactChunks, planTree, type StreamStats, type TreeOptions } from './artifact-stream.ts';
import { artifactChunksAsync } from './artifact-stream-async.ts';
import { fsTreeReader } from './fs-tree-reader.ts';
import type { TreeReader } from './tree-reader.ts';

export interface DirectoryFingerprint extends StreamStats {
  address: ContentAddress;
}

export interface FingerprintOptions extends TreeOptions {
  reader?: TreeReader;
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
 * `fingerprintDirectory`, faster on large files: their next part is read on the thread pool while this thread
 * hashes the part before, so the time is about the hash time alone rather than read + hash (a quiet 2-core
 * machine: 0.91x of read + hash on 1 x 100 MiB, against 1.01x sync). The same address, two buffers of memory.
 * It needs a free core to gain: on a saturated machine the thread hop can cost what the overlap saves.
 */
export async function fingerprintDirectoryAsync(
  path: string,
  opts: FingerprintOptions = {},
): Promise<DirectoryFingerprint> {
  const reader = opts.reader ?? fsTreeReader;
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  for await (const chunk of artifactChunksAsync(reader, planTree(reader, path, opts), stats, opts.bufferBytes))
    hash.update(chunk);
  return { address: addressFromHex(hash.digest('hex')), ...stats };
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
  const reader = opts.reader ?? fsTreeReader;
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  for await (const chunk of artifactChunksAsync(reader, planTree(reader, path, opts), stats, opts.bufferBytes)) {
    hash.update(chunk);
    const ok = sink.write(Buffer.from(chunk));
    if (ok === false && sink.once) await new Promise<void>((resolve) => sink.once!('drain', resolve));
  }
  return { address: addressFromHex(hash.digest('hex')), ...stats };
}
