import { ProseError } from '../core/errors.ts';
import { normalizeArtifactPath } from './artifact-path.ts';
import { opwm1FileHeader, opwm1Header } from './opwm1.ts';
import type { TreeFile, TreeReader } from './tree-reader.ts';

/** What a directory fingerprint covers (decision `canon-directory-fingerprint`). */
export interface TreeOptions {
  /** Leaves a file out by its normalized path. Default: only a `.version` at the root (the node's stamp). */
  exclude?: (path: string) => boolean;
  /** The reused read buffer's size. */
  bufferBytes?: number;
}

export interface StreamStats {
  files: number;
  /** Length of the OPWM1 stream. */
  bytes: number;
}

export const DEFAULT_EXCLUDE = (path: string): boolean => path === '.version';
const UTF8 = new TextEncoder();

interface Planned { file: TreeFile; pathBytes: Uint8Array }

/**
 * The files of a directory (or one file) in canonical order: paths normalized like any artifact path, sorted by
 * UTF-8 bytes, collisions refused.
 */
export function planTree(reader: TreeReader, path: string, opts: TreeOptions = {}): Planned[] {
  const kind = reader.kind(path);
  if (kind === 'missing') throw new ProseError('E_NOT_FOUND', `no file or directory at ${path}`, { location: { file: path } });
  if (kind === 'file') return plan([reader.single(path)], () => false);
  if (kind !== 'directory') throw new ProseError('E_FORMAT', `${path} is neither a regular file nor a directory`, { location: { file: path } });
  return plan(reader.list(path), opts.exclude ?? DEFAULT_EXCLUDE);
}

function plan(files: TreeFile[], exclude: (p: string) => boolean): Planned[] {
  const out: Planned[] = [];
  for (const file of files) {
    const norm = normalizeArtifactPath(file.path, file.path);
    if (exclude(norm)) continue;
    out.push({ file: { ...file, path: norm }, pathBytes: UTF8.encode(norm) });
  }
  out.sort((a, b) => Buffer.compare(a.pathBytes, b.pathBytes));
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.file.path === out[i - 1]!.file.path) {
      throw new ProseError('E_FORMAT', `two files normalize to the artifact path ${JSON.stringify(out[i]!.file.path)}`, {
        location: { file: out[i]!.file.ref }, hint: 'a file name holding "\\" collides with the directory path it spells',
      });
    }
  }
  return out;
}

/**
 * Yields the OPWM1 stream of a planned tree, reading each file through one reused buffer: nothing is
 * concatenated, so memory stays flat however large the tree. Chunks are views valid until the next step.
 */
export function* artifactChunks(reader: TreeReader, planned: readonly Planned[], stats: StreamStats, bufferBytes = 1 << 20): Generator<Uint8Array> {
  const buffer = new Uint8Array(bufferBytes);
  const header = opwm1Header(planned.length);
  stats.files = planned.length;
  stats.bytes = header.length;
  yield header;
  for (let i = 0; i < planned.length; i++) {
    const { file, pathBytes } = planned[i]!;
    const frame = opwm1FileHeader(pathBytes, file.size, `files[${i}]`);
    stats.bytes += frame.length;
    yield frame;
    let read = 0;
    for (const chunk of reader.chunks(file, buffer)) {
      read += chunk.length;
      if (read > file.size) break;
      yield chunk;
    }
    if (read !== file.size) {
      throw new ProseError('E_IO', `${file.path} changed size while being read (${file.size} listed, ${read}${read > file.size ? '+' : ''} read)`, {
        location: { file: file.ref }, hint: 'fingerprint a tree nobody is writing to',
      });
    }
    stats.bytes += read;
  }
}
