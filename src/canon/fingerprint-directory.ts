import { createHash } from 'node:crypto';
import { addressFromHex, type ContentAddress } from './content-address.ts';
import { artifactChunks, planTree, type StreamStats, type TreeOptions } from './artifact-stream.ts';
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
 */
export function fingerprintDirectory(path: string, opts: FingerprintOptions = {}): DirectoryFingerprint {
  const reader = opts.reader ?? fsTreeReader;
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  for (const chunk of artifactChunks(reader, planTree(reader, path, opts), stats, opts.bufferBytes)) hash.update(chunk);
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
export async function serializeDirectoryTo(path: string, sink: ByteSink, opts: FingerprintOptions = {}): Promise<DirectoryFingerprint> {
  const reader = opts.reader ?? fsTreeReader;
  const stats: StreamStats = { files: 0, bytes: 0 };
  const hash = createHash('sha256');
  for (const chunk of artifactChunks(reader, planTree(reader, path, opts), stats, opts.bufferBytes)) {
    hash.update(chunk);
    const ok = sink.write(Buffer.from(chunk));
    if (ok === false && sink.once) await new Promise<void>((resolve) => sink.once!('drain', resolve));
  }
  return { address: addressFromHex(hash.digest('hex')), ...stats };
}
