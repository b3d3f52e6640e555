import { ProseError } from '../core/errors.ts';
import { normalizeArtifactPath } from './artifact-path.ts';
import { opwm1FileHeader, opwm1Header, UINT32_MAX } from './opwm1.ts';
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

/** An empty, "." or ".." segment (which covers a leading, trailing or doubled "/"). */
const ABNORMAL_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** True when `normalizeArtifactPath` would return the path unchanged without refusing it. */
function isNormal(path: string): boolean {
  return !path.includes('\\') && !ABNORMAL_SEGMENT.test(path) && path.isWellFormed();
}

function plan(files: TreeFile[], exclude: (p: string) => boolean): Planned[] {
  const out: Planned[] = [];
  for (const file of files) {
    // Most listed paths are already normal (a readdir name holds no "/", and is never "." or ".."): skip the
    // split and join then. Buffer.from encodes a well-formed string to the same bytes as TextEncoder, faster.
    const norm = isNormal(file.path) ? file.path : normalizeArtifactPath(file.path, file.path);
    if (exclude(norm)) continue;
    out.push({ file: norm === file.path ? file : { ...file, path: norm }, pathBytes: Buffer.from(norm, 'utf8') });
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
 * Yields the OPWM1 stream of a planned tree through one reused staging buffer (`bufferBytes`): nothing is
 * concatenated beyond it, so memory stays flat however large the tree. Chunks are views valid until the next step.
 *
 * With the reader's `access`, a file that fits is read straight into the buffer behind the room left for its
 * frame header, in one read: a short read is end of file, so its length is the size, and the header is written
 * in front of the bytes afterwards. Many small files thus cost open + read + close each and one chunk per
 * buffer-full. A file that fills its room takes a size query and streamed reads, checked against that size.
 */
export function* artifactChunks(reader: TreeReader, planned: readonly Planned[], stats: StreamStats, bufferBytes = 1 << 20): Generator<Uint8Array> {
  const stage = new Uint8Array(Math.max(bufferBytes, 64)); // room at least for the stream header
  const header = opwm1Header(planned.length);
  stage.set(header, 0);
  let pos = header.length;
  stats.files = planned.length;
  stats.bytes = header.length;
  // With less room than this left for content, the buffer is handed on first, so that a small file is not sent
  // down the size-query-and-stream path only because the buffer is nearly full.
  const minRoom = Math.min(4096, stage.length >>> 2);
  const access = reader.access;
  for (let i = 0; i < planned.length; i++) {
    const { file, pathBytes } = planned[i]!;
    const head = 8 + pathBytes.length;
    if (pos > 0 && pos + head + minRoom > stage.length) {
      yield stage.subarray(0, pos);
      pos = 0;
    }
    if (access === undefined) {
      // The generic path: listed sizes, the header staged (or alone if it does not fit), the content streamed.
      if (file.size < 0) throw new Error(`tree reader listed ${file.path} without a size and offers no access to learn it`);
      const frame = opwm1FileHeader(pathBytes, file.size, `files[${i}]`);
      if (pos + head <= stage.length) {
        stage.set(frame, pos);
        yield stage.subarray(0, pos + head);
      } else {
        if (pos > 0) yield stage.subarray(0, pos);
        yield frame;
      }
      pos = 0;
      let read = 0;
      for (const chunk of reader.chunks(file, stage)) {
        read += chunk.length;
        if (read > file.size) break;
        yield chunk;
      }
      if (read !== file.size) throw changedSize(file, file.size, read, read > file.size);
      stats.bytes += head + read;
      continue;
    }
    const handle = access.open(file);
    try {
      const room = stage.length - pos - head;
      let got = 0;
      if (room > 0) {
        got = access.readInto(handle, stage, pos + head, room);
        if (got < room) {
          // The whole file is in place; its length is its size.
          if (file.size >= 0 && got !== file.size) throw changedSize(file, file.size, got);
          writeFrameHeader(stage, pos, pathBytes, got, i);
          pos += head + got;
          stats.bytes += head + got;
          continue;
        }
      }
      // Does not fit: the size now, then the bytes already read and the rest streamed through the whole buffer.
      const size = file.size >= 0 ? file.size : access.size(handle);
      if (got > size) throw changedSize(file, size, got, true);
      if (room > 0) {
        writeFrameHeader(stage, pos, pathBytes, size, i);
        yield stage.subarray(0, pos + head + got);
      } else {
        // A path longer than the buffer: its header stands alone.
        if (pos > 0) yield stage.subarray(0, pos);
        yield opwm1FileHeader(pathBytes, size, `files[${i}]`);
      }
      pos = 0;
      let read = got;
      for (let n = access.readInto(handle, stage, 0, stage.length); n > 0; n = access.readInto(handle, stage, 0, stage.length)) {
        read += n;
        if (read > size) break;
        yield stage.subarray(0, n);
      }
      if (read !== size) throw changedSize(file, size, read, read > size);
      stats.bytes += head + read;
    } finally {
      access.close(handle);
    }
  }
  if (pos > 0) yield stage.subarray(0, pos);
}

/** The frame header in place, as `opwm1FileHeader` builds it (which also raises its E_FORMAT when out of range). */
function writeFrameHeader(buf: Uint8Array, at: number, pathBytes: Uint8Array, size: number, i: number): void {
  if (size > UINT32_MAX || pathBytes.length > UINT32_MAX) opwm1FileHeader(pathBytes, size, `files[${i}]`);
  writeU32(buf, at, pathBytes.length);
  buf.set(pathBytes, at + 4);
  writeU32(buf, at + 4 + pathBytes.length, size);
}

function writeU32(buf: Uint8Array, off: number, value: number): void {
  buf[off] = value & 0xff;
  buf[off + 1] = (value >>> 8) & 0xff;
  buf[off + 2] = (value >>> 16) & 0xff;
  buf[off + 3] = (value >>> 24) & 0xff;
}

function changedSize(file: TreeFile, size: number, read: number, more = false): ProseError {
  return new ProseError('E_IO', `${file.path} changed size while being read (${size} ${file.size >= 0 ? 'listed' : 'at open'}, ${read}${more ? '+' : ''} read)`, {
    location: { file: file.ref }, hint: 'fingerprint a tree nobody is writing to',
  });
}
