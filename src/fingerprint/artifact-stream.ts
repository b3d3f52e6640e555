import { ProseError } from '../core/errors.ts';
import { normalizeArtifactPath } from '../canon/artifact-path.ts';
import { ArtifactStage, type Planned, type StreamStats } from './artifact-stage.ts';
import type { TreeFile, TreeReader } from './tree-reader.ts';

export type { Planned, StreamStats };

/** What a directory fingerprint covers (decision `canon-directory-fingerprint`). */
export interface TreeOptions {
  /** Leaves a file out by its normalized path. Default: only a `.version` at the root (the node's stamp). */
  exclude?: (path: string) => boolean;
  /** The reused read buffer's size. */
  bufferBytes?: number;
}

export const DEFAULT_EXCLUDE = (path: string): boolean => path === '.version';

/** The staging buffer's default size: hashing speed is flat from 64 KiB to 4 MiB chunks here, and 1 MiB holds
 * many small files per hash call. */
export const DEFAULT_BUFFER_BYTES = 1 << 20;

/**
 * The files of a directory (or one file) in canonical order: paths normalized like any artifact path, sorted by
 * UTF-8 bytes, collisions refused.
 */
export function planTree(reader: TreeReader, path: string, opts: TreeOptions = {}): Planned[] {
  const kind = reader.kind(path);
  if (kind === 'missing')
    throw new ProseError('E_NOT_FOUND', `no file or directory at ${path}`, { location: { file: path } });
  if (kind === 'file') return plan([reader.single(path)], () => false);
  if (kind !== 'directory')
    throw new ProseError('E_FORMAT', `${path} is neither a regular file nor a directory`, { location: { file: path } });
  return plan(reader.list(path), opts.exclude ?? DEFAULT_EXCLUDE);
}

/** An empty, "." or ".." segment (which covers a leading, trailing or doubled "/"). */
const ABNORMAL_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** True when `normalizeArtifactPath` would return the path unchanged without refusing it. */
function isNormal(path: string): boolean {
  return !path.includes('\\') && !ABNORMAL_SEGMENT.test(path) && path.isWellFormed();
}

const SURROGATE = /[\uD800-\uDFFF]/;
const byBytes = (a: Planned, b: Planned): number => Buffer.compare(a.pathBytes, b.pathBytes);
const byString = (a: Planned, b: Planned): number =>
  a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0;

/**
 * A planned file whose UTF-8 path is encoded when first asked for: the parallel reader encodes most paths straight
 * into its slots and never asks (10,000 encodings cost its hashing thread ~1.7 ms).
 */
class PlannedFile implements Planned {
  private bytes: Uint8Array | undefined;
  constructor(readonly file: TreeFile) {}
  get pathBytes(): Uint8Array {
    return (this.bytes ??= Buffer.from(this.file.path, 'utf8'));
  }
}

function plan(files: TreeFile[], exclude: (p: string) => boolean): Planned[] {
  const out: Planned[] = [];
  for (const file of files) {
    // Most listed paths are already normal (a readdir name holds no "/", and is never "." or ".."): skip the
    // split and join then. Buffer.from (in PlannedFile) encodes a well-formed string to TextEncoder's bytes, faster.
    const norm = isNormal(file.path) ? file.path : normalizeArtifactPath(file.path, file.path);
    if (exclude(norm)) continue;
    out.push(new PlannedFile(norm === file.path ? file : { ...file, path: norm }));
  }
  // Without surrogates, UTF-16 order is code point order, which is UTF-8 byte order: comparing the strings is
  // 2-3x cheaper than Buffer.compare on 10,000 paths. A path beyond the BMP needs the bytes.
  out.sort(out.some((p) => SURROGATE.test(p.file.path)) ? byBytes : byString);
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.file.path === out[i - 1]!.file.path) {
      throw new ProseError(
        'E_FORMAT',
        `two files normalize to the artifact path ${JSON.stringify(out[i]!.file.path)}`,
        {
          location: { file: out[i]!.file.ref },
          hint: 'a file name holding "\\" collides with the directory path it spells',
        },
      );
    }
  }
  return out;
}

/**
 * Yields the OPWM1 stream of a planned tree through one reused staging buffer (`bufferBytes`): nothing is
 * concatenated beyond it, so memory stays flat however large the tree. Chunks are views valid until the next step.
 *
 * With the reader's `access`, a file that fits is read straight into the stage behind its frame header
 * (`ArtifactStage`), so many small files cost open + read + close each and one chunk per buffer-full. A file that
 * fills its room takes a size query and streamed reads, checked against that size. `artifactChunksAsync` is the
 * same stream with large files read off the main thread.
 */
export function* artifactChunks(
  reader: TreeReader,
  planned: readonly Planned[],
  stats: StreamStats,
  bufferBytes = DEFAULT_BUFFER_BYTES,
): Generator<Uint8Array> {
  const stage = new ArtifactStage(planned.length, stats, bufferBytes);
  const access = reader.access;
  for (let i = 0; i < planned.length; i++) {
    const entry = planned[i]!;
    const full = stage.flushFor(8 + entry.pathBytes.length);
    if (full) yield full;
    if (access === undefined) {
      yield* stage.stageGeneric(reader, entry, i);
      continue;
    }
    yield* stage.stageWhole(access, entry, i);
  }
  if (stage.holding) yield stage.take();
}
